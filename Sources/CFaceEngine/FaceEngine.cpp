// One compile unit on purpose: instantiating dlib's ResNet templates costs
// ~30 s and ~1.2 GB of RAM, paid once per build configuration.
#include "FaceEngine.h"

#include <dlib/dnn.h>
#include <dlib/image_processing.h>
#include <dlib/image_processing/frontal_face_detector.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <exception>
#include <new>
#include <vector>

using namespace dlib;

namespace {

// The network of dlib_face_recognition_resnet_model_v1.dat, as dlib's
// dnn_face_recognition_ex.cpp declares it (the file holds weights only).
template <template <int, template <typename> class, int, typename> class block, int N,
          template <typename> class BN, typename SUBNET>
using residual = add_prev1<block<N, BN, 1, tag1<SUBNET>>>;

template <template <int, template <typename> class, int, typename> class block, int N,
          template <typename> class BN, typename SUBNET>
using residual_down = add_prev2<avg_pool<2, 2, 2, 2, skip1<tag2<block<N, BN, 2, tag1<SUBNET>>>>>>;

template <int N, template <typename> class BN, int stride, typename SUBNET>
using block = BN<con<N, 3, 3, 1, 1, relu<BN<con<N, 3, 3, stride, stride, SUBNET>>>>>;

template <int N, typename SUBNET> using ares = relu<residual<block, N, affine, SUBNET>>;
template <int N, typename SUBNET> using ares_down = relu<residual_down<block, N, affine, SUBNET>>;

template <typename SUBNET> using alevel0 = ares_down<256, SUBNET>;
template <typename SUBNET> using alevel1 = ares<256, ares<256, ares_down<256, SUBNET>>>;
template <typename SUBNET> using alevel2 = ares<128, ares<128, ares_down<128, SUBNET>>>;
template <typename SUBNET> using alevel3 = ares<64, ares<64, ares<64, ares_down<64, SUBNET>>>>;
template <typename SUBNET> using alevel4 = ares<32, ares<32, ares<32, SUBNET>>>;

using recognition_net = loss_metric<fc_no_bias<128, avg_pool_everything<
    alevel0<alevel1<alevel2<alevel3<alevel4<
    max_pool<3, 3, 2, 2, relu<affine<con<32, 7, 7, 2, 2, input_rgb_image_sized<150>>>>>>>>>>>>>;

// The chip the network was trained on: 150 px, a quarter of padding.
constexpr unsigned long chip_size = 150;
constexpr double chip_padding = 0.25;

void put(char *error, size_t size, const char *what) {
    if (error && size > 0) std::snprintf(error, size, "%s", what);
}

} // namespace

struct gg_face_engine {
    frontal_face_detector detector;
    shape_predictor landmarks;
    recognition_net describer;
};

extern "C" gg_face_engine *gg_face_engine_open(const char *shape_predictor_path, const char *recognition_path,
                                               const uint8_t *detector, size_t detector_size, char *error, size_t error_size) {
    try {
        auto engine = new gg_face_engine();
        try {
            bool unpacked = false;
            if (detector && detector_size > 0) {
                try {
                    std::istringstream in(std::string(reinterpret_cast<const char *>(detector), detector_size));
                    deserialize(engine->detector, in);
                    unpacked = engine->detector.num_detectors() > 0;
                } catch (...) {
                    unpacked = false;
                }
            }
            if (!unpacked) engine->detector = get_frontal_face_detector();
            deserialize(shape_predictor_path) >> engine->landmarks;
            deserialize(recognition_path) >> engine->describer;
        } catch (...) {
            delete engine;
            throw;
        }
        return engine;
    } catch (const std::exception &e) {
        put(error, error_size, e.what());
    } catch (...) {
        put(error, error_size, "unknown error");
    }
    return nullptr;
}

extern "C" gg_face_engine *gg_face_engine_copy(const gg_face_engine *engine) {
    try {
        return new gg_face_engine(*engine);
    } catch (...) {
        return nullptr;
    }
}

extern "C" void gg_face_engine_close(gg_face_engine *engine) { delete engine; }

extern "C" size_t gg_face_engine_detector(const gg_face_engine *engine, uint8_t *out, size_t capacity) {
    try {
        std::ostringstream bytes;
        serialize(engine->detector, bytes);
        const std::string text = bytes.str();
        if (out && capacity >= text.size()) std::memcpy(out, text.data(), text.size());
        return text.size();
    } catch (...) {
        return 0;
    }
}

extern "C" int gg_face_engine_find(gg_face_engine *engine, const uint8_t *rgb, int width, int height, int stride, int largest_side,
                                   double minimum_score, gg_face *faces, int capacity, char *error, size_t error_size) {
    try {
        if (width <= 0 || height <= 0 || stride < width * 3) {
            put(error, error_size, "bad picture size");
            return -1;
        }
        matrix<rgb_pixel> picture(height, width);
        matrix<unsigned char> grey(height, width);
        for (int y = 0; y < height; ++y) {
            const uint8_t *row = rgb + static_cast<size_t>(y) * stride;
            for (int x = 0; x < width; ++x) {
                const uint8_t r = row[3 * x], g = row[3 * x + 1], b = row[3 * x + 2];
                picture(y, x) = rgb_pixel(r, g, b);
                // BT.601 luma, as dlib's own rgb-to-grey assignment makes it.
                grey(y, x) = static_cast<unsigned char>((r * 77 + g * 150 + b * 29 + 128) >> 8);
            }
        }
        std::vector<rect_detection> found;
        const int longer = std::max(width, height);
        if (largest_side > 0 && longer > largest_side) {
            const double scale = static_cast<double>(largest_side) / longer;
            matrix<unsigned char> smaller(std::max(1L, std::lround(height * scale)), std::max(1L, std::lround(width * scale)));
            resize_image(grey, smaller);
            engine->detector(smaller, found, minimum_score);
            for (rect_detection &detection : found) {
                const rectangle &box = detection.rect;
                detection.rect = rectangle(std::lround(box.left() / scale), std::lround(box.top() / scale),
                                           std::lround((box.right() + 1) / scale) - 1, std::lround((box.bottom() + 1) / scale) - 1);
            }
        } else {
            engine->detector(grey, found, minimum_score);
        }
        std::sort(found.begin(), found.end(),
                  [](const rect_detection &a, const rect_detection &b) { return a.detection_confidence > b.detection_confidence; });
        const int described = std::min<int>(capacity, static_cast<int>(found.size()));
        std::vector<matrix<rgb_pixel>> chips;
        chips.reserve(described);
        for (int i = 0; i < described; ++i) {
            const full_object_detection shape = engine->landmarks(grey, found[i].rect);
            matrix<rgb_pixel> chip;
            extract_image_chip(picture, get_face_chip_details(shape, chip_size, chip_padding), chip);
            chips.push_back(std::move(chip));
        }
        std::vector<matrix<float, 0, 1>> descriptors = engine->describer(chips);
        for (int i = 0; i < described; ++i) {
            gg_face &face = faces[i];
            const rectangle &box = found[i].rect;
            face.left = static_cast<float>(box.left());
            face.top = static_cast<float>(box.top());
            face.right = static_cast<float>(box.right() + 1);
            face.bottom = static_cast<float>(box.bottom() + 1);
            face.score = static_cast<float>(found[i].detection_confidence);
            for (long k = 0; k < GG_FACE_DESCRIPTOR_LENGTH; ++k) face.descriptor[k] = descriptors[i](k);
        }
        return static_cast<int>(found.size());
    } catch (const std::bad_alloc &) {
        put(error, error_size, "out of memory");
    } catch (const std::exception &e) {
        put(error, error_size, e.what());
    } catch (...) {
        put(error, error_size, "unknown error");
    }
    return -1;
}
