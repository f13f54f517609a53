// One compile unit on purpose: instantiating dlib's ResNet templates costs
// ~30 s and ~1.2 GB of RAM, paid once per build configuration.
#include "FaceEngine.h"
#include "EngineBytes.hpp"

#include <dlib/dnn.h>
#include <dlib/image_processing.h>
#include <dlib/image_processing/frontal_face_detector.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <memory>
#include <sstream>
#include <string>
#include <exception>
#include <new>
#include <sys/stat.h>
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

// How the network may call the BLAS the system gave it (libblas.so.3 is
// whichever Debian's alternatives chose). OpenBLAS built single-threaded
// (Debian's libopenblas0-serial 0.3.21) hands its packing buffers to
// whichever thread asks, without a lock: two faces described at once on
// two threads read each other's numbers, and the descriptors come out
// wrong with no error (sgemm from 8 threads: up to 489 products in 16,000 wrong). Such
// a BLAS is called by one engine at a time. OpenBLAS's threaded builds
// lock their buffers; they are told to run each call on its caller's
// thread, as gallerygen runs one photo per core. Other BLAS libraries
// (the reference one) keep nothing between calls.
struct BlasUse {
    bool one_at_a_time = false;
    BlasUse() {
        using get_parallel_fn = int (*)();
        using set_threads_fn = void (*)(int);
        auto get_parallel = reinterpret_cast<get_parallel_fn>(dlsym(RTLD_DEFAULT, "openblas_get_parallel"));
        if (!get_parallel) return;
        if (get_parallel() == 0) {
            one_at_a_time = true;
        } else if (auto set_threads = reinterpret_cast<set_threads_fn>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) {
            set_threads(1);
        }
    }
};

const BlasUse &blas_use() {
    static const BlasUse use;
    return use;
}

std::mutex one_describer;

void put(char *error, size_t size, const char *what) {
    if (error && size > 0) std::snprintf(error, size, "%s", what);
}

} // namespace

struct gg_face_engine {
    frontal_face_detector detector;
    shape_predictor landmarks;
    recognition_net describer;
    // The aligner in the cache's form, made (and checked) once.
    std::shared_ptr<const std::vector<uint8_t>> landmark_bytes;
};

namespace {

// What begins the cache after the caller's header: its layout's version,
// and that it was written by a machine that holds numbers the same way.
constexpr uint64_t cache_mark = 0x67676600000001ull;

// The network's weights, one tensor after another: its shape, its floats.
void write_weights(recognition_net &net, gg::ByteWriter &out) {
    std::vector<resizable_tensor> weights;
    visit_layer_parameters(net, [&](tensor &held) { weights.push_back(std::move(dynamic_cast<resizable_tensor &>(held))); });
    // The network without its weights is dlib's own serialisation, 36 KB.
    std::ostringstream skeleton;
    std::exception_ptr failure;
    try {
        serialize(net, skeleton);
    } catch (...) {
        failure = std::current_exception();
    }
    size_t index = 0;
    visit_layer_parameters(net, [&](tensor &held) { dynamic_cast<resizable_tensor &>(held) = std::move(weights[index++]); });
    if (failure) std::rethrow_exception(failure);
    const std::string text = skeleton.str();
    out.pod<uint64_t>(text.size());
    out.put(text.data(), text.size());
    out.pod<uint64_t>(weights.size());
    visit_layer_parameters(net, [&](tensor &held) {
        const uint64_t shape[4] = {static_cast<uint64_t>(held.num_samples()), static_cast<uint64_t>(held.k()),
                                   static_cast<uint64_t>(held.nr()), static_cast<uint64_t>(held.nc())};
        out.put(shape, sizeof shape);
        out.put(held.host(), sizeof(float) * held.size());
    });
}

bool read_weights(gg::ByteReader &in, recognition_net &net) {
    uint64_t size = 0, count = 0, visited = 0;
    if (!in.count(size, 1)) return false;
    std::string text(size, '\0');
    if (!in.take(&text[0], size)) return false;
    std::istringstream skeleton(text);
    deserialize(net, skeleton);
    if (!in.count(count, 4 * sizeof(uint64_t))) return false;
    bool whole = true;
    visit_layer_parameters(net, [&](tensor &held) {
        uint64_t shape[4] = {};
        if (!whole || ++visited > count || !in.take(shape, sizeof shape)) {
            whole = false;
            return;
        }
        // No side, and not their product, past the floats the rest of the file holds.
        const uint64_t most = in.remaining() / sizeof(float);
        uint64_t floats = 1;
        for (uint64_t side : shape) {
            if (side > most || (side != 0 && floats > most / side)) {
                whole = false;
                return;
            }
            floats *= side;
        }
        auto &weights = dynamic_cast<resizable_tensor &>(held);
        weights.set_size(static_cast<long long>(shape[0]), static_cast<long>(shape[1]), static_cast<long>(shape[2]),
                         static_cast<long>(shape[3]));
        whole = floats == 0 || in.take(weights.host(), sizeof(float) * floats);
    });
    return whole && visited == count;
}

// The engine from its cache: false (and nothing kept) when the file is
// missing, of another header or version, short or damaged.
bool read_cache(const char *path, const char *header, gg_face_engine &engine) {
    FILE *file = path ? std::fopen(path, "rb") : nullptr;
    if (!file) return false;
    // (The buffer outlives the file, which uses it until closed.)
    std::vector<char> buffer(1 << 20);
    std::unique_ptr<FILE, int (*)(FILE *)> closing(file, std::fclose);
    struct stat info {};
    if (fstat(fileno(file), &info) != 0 || info.st_size <= 0) return false;
    std::setvbuf(file, buffer.data(), _IOFBF, buffer.size());
    gg::ByteReader in(file, static_cast<size_t>(info.st_size));
    const std::string expected(header);
    std::string found(expected.size(), '\0');
    uint64_t mark = 0, detector_size = 0;
    if (!in.take(&found[0], found.size()) || found != expected || !in.pod(mark) || mark != cache_mark) return false;
    if (!in.count(detector_size, 1)) return false;
    std::string detector(detector_size, '\0');
    if (!in.take(&detector[0], detector.size())) return false;
    if (!gg::read_landmarks(in, engine.landmarks) || !read_weights(in, engine.describer) || !in.finish()) return false;
    // dlib's own parsing of the detector, once the sum says the bytes are the ones written.
    std::istringstream detector_in(detector);
    deserialize(engine.detector, detector_in);
    return engine.detector.num_detectors() > 0;
}

void write_cache(gg_face_engine &engine, const char *header, gg::ByteWriter &out) {
    out.put(header, std::strlen(header));
    out.pod(cache_mark);
    std::ostringstream detector;
    serialize(engine.detector, detector);
    const std::string text = detector.str();
    out.pod<uint64_t>(text.size());
    out.put(text.data(), text.size());
    out.put(engine.landmark_bytes->data(), engine.landmark_bytes->size());
    write_weights(engine.describer, out);
    out.finish();
}

} // namespace

extern "C" gg_face_engine *gg_face_engine_open(const char *shape_predictor_path, const char *recognition_path, const char *cache_path,
                                               const char *header, int *from_cache, char *error, size_t error_size) {
    try {
        std::unique_ptr<gg_face_engine> engine(new gg_face_engine());
        bool cached = false;
        try {
            cached = read_cache(cache_path, header, *engine);
        } catch (...) {
            cached = false;
        }
        if (!cached) {
            engine.reset(new gg_face_engine());
            engine->detector = get_frontal_face_detector();
            deserialize(shape_predictor_path) >> engine->landmarks;
            deserialize(recognition_path) >> engine->describer;
        }
        if (from_cache) *from_cache = cached ? 1 : 0;
        return engine.release();
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

extern "C" int gg_face_engine_describes_one_at_a_time(void) { return blas_use().one_at_a_time ? 1 : 0; }

extern "C" size_t gg_face_engine_cache(gg_face_engine *engine, const char *header, uint8_t *out, size_t capacity) {
    try {
        // The outputs the network kept of its last faces are not the model.
        engine->describer.clean();
        if (!engine->landmark_bytes) {
            auto bytes = std::make_shared<std::vector<uint8_t>>();
            if (!gg::landmarks_as_bytes(engine->landmarks, *bytes)) return 0;
            engine->landmark_bytes = bytes;
        }
        // Without `out`, the bytes are counted; with it, a buffer too small throws (0).
        gg::ByteWriter writer(out, out ? capacity : 0);
        write_cache(*engine, header, writer);
        return writer.written();
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
        std::unique_lock<std::mutex> held(one_describer, std::defer_lock);
        if (blas_use().one_at_a_time) held.lock();
        const std::vector<matrix<float, 0, 1>> descriptors = engine->describer(chips);
        if (held.owns_lock()) held.unlock();
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
