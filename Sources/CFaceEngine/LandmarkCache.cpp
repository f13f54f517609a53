// dlib reads a shape predictor float by float from a portable encoding
// (0.1 s for the 5-point model's 120,000 leaves); these are its parts as
// the machine holds them, read in a fifth of that. The parts are private
// to dlib's class, so they are read from its own serialisation once, and
// the predictor is rebuilt from the landmarks' pixel positions through its
// public constructor.
#include "EngineBytes.hpp"

#include <sstream>

using namespace dlib;

namespace gg {

namespace {

using forest = std::vector<impl::regression_tree>;
using pixels = std::vector<dlib::vector<float, 2>>;

void write_parts(const matrix<float, 0, 1> &initial_shape, const std::vector<forest> &forests, const std::vector<pixels> &pixel_coordinates,
                 ByteWriter &out) {
    out.pod<uint64_t>(initial_shape.size());
    out.put(&initial_shape(0), sizeof(float) * initial_shape.size());
    out.pod<uint64_t>(forests.size());
    for (const forest &trees : forests) {
        out.pod<uint64_t>(trees.size());
        for (const impl::regression_tree &tree : trees) {
            out.pod<uint64_t>(tree.splits.size());
            for (const impl::split_feature &split : tree.splits) {
                out.pod<uint64_t>(split.idx1);
                out.pod<uint64_t>(split.idx2);
                out.pod<float>(split.thresh);
            }
            out.pod<uint64_t>(tree.leaf_values.size());
            for (const matrix<float, 0, 1> &leaf : tree.leaf_values) {
                if (leaf.size() != initial_shape.size()) throw std::runtime_error("a leaf of another size than the shape");
                out.put(&leaf(0), sizeof(float) * leaf.size());
            }
        }
    }
    for (const pixels &cascade : pixel_coordinates) {
        out.pod<uint64_t>(cascade.size());
        for (const dlib::vector<float, 2> &point : cascade) {
            out.pod<float>(point.x());
            out.pod<float>(point.y());
        }
    }
}

} // namespace

bool landmarks_as_bytes(const shape_predictor &landmarks, std::vector<uint8_t> &result) {
    std::ostringstream official;
    serialize(landmarks, official);
    const std::string original = official.str();
    // shape_predictor's own order: version, initial shape, forests, anchors, deltas.
    std::istringstream in(original);
    int version = 0;
    matrix<float, 0, 1> initial_shape;
    std::vector<forest> forests;
    std::vector<std::vector<unsigned long>> anchors;
    std::vector<pixels> deltas;
    deserialize(version, in);
    if (version != 1) return false;
    deserialize(initial_shape, in);
    deserialize(forests, in);
    deserialize(anchors, in);
    deserialize(deltas, in);
    if (anchors.size() != forests.size() || deltas.size() != forests.size()) return false;
    std::vector<pixels> pixel_coordinates(forests.size());
    for (size_t i = 0; i < forests.size(); ++i) {
        if (anchors[i].size() != deltas[i].size()) return false;
        for (size_t j = 0; j < deltas[i].size(); ++j) {
            const unsigned long anchor = anchors[i][j];
            if (2 * anchor + 1 >= static_cast<unsigned long>(initial_shape.size())) return false;
            pixel_coordinates[i].push_back(dlib::vector<float, 2>(initial_shape(2 * anchor), initial_shape(2 * anchor + 1)) + deltas[i][j]);
        }
    }
    // The constructor finds each pixel's anchor and delta again, with this
    // function: they must be dlib's own to the last bit (the initial shape
    // and the forests are copied as they are).
    for (size_t i = 0; i < forests.size(); ++i) {
        std::vector<unsigned long> anchors_again;
        pixels deltas_again;
        impl::create_shape_relative_encoding(initial_shape, pixel_coordinates[i], anchors_again, deltas_again);
        if (anchors_again != anchors[i] || deltas_again.size() != deltas[i].size()) return false;
        for (size_t j = 0; j < deltas[i].size(); ++j) {
            const float again[2] = {deltas_again[j].x(), deltas_again[j].y()}, original[2] = {deltas[i][j].x(), deltas[i][j].y()};
            if (std::memcmp(again, original, sizeof again) != 0) return false;
        }
    }
    ByteWriter counter(nullptr, 0);
    write_parts(initial_shape, forests, pixel_coordinates, counter);
    result.assign(counter.written(), 0);
    ByteWriter writer(result.data(), result.size());
    write_parts(initial_shape, forests, pixel_coordinates, writer);
    return true;
}

bool read_landmarks(ByteReader &in, shape_predictor &landmarks) {
    uint64_t parts = 0, cascades = 0;
    if (!in.count(parts, sizeof(float)) || parts == 0 || parts % 2 != 0) return false;
    matrix<float, 0, 1> initial_shape(static_cast<long>(parts));
    if (!in.take(&initial_shape(0), sizeof(float) * parts)) return false;
    if (!in.count(cascades, sizeof(uint64_t))) return false;
    std::vector<forest> forests(cascades);
    for (forest &trees : forests) {
        uint64_t count = 0;
        if (!in.count(count, 2 * sizeof(uint64_t))) return false;
        trees.resize(count);
        for (impl::regression_tree &tree : trees) {
            uint64_t splits = 0, leaves = 0;
            if (!in.count(splits, 2 * sizeof(uint64_t) + sizeof(float))) return false;
            tree.splits.resize(splits);
            for (impl::split_feature &split : tree.splits) {
                uint64_t first = 0, second = 0;
                if (!in.pod(first) || !in.pod(second) || !in.pod(split.thresh)) return false;
                split.idx1 = first;
                split.idx2 = second;
            }
            // A full binary tree: the walk from the root ends on one of its leaves.
            if (!in.count(leaves, sizeof(float) * parts) || leaves != splits + 1) return false;
            tree.leaf_values.resize(leaves);
            for (matrix<float, 0, 1> &leaf : tree.leaf_values) {
                leaf.set_size(static_cast<long>(parts));
                if (!in.take(&leaf(0), sizeof(float) * parts)) return false;
            }
        }
    }
    std::vector<pixels> pixel_coordinates(cascades);
    for (size_t i = 0; i < cascades; ++i) {
        uint64_t count = 0;
        if (!in.count(count, 2 * sizeof(float))) return false;
        pixel_coordinates[i].resize(count);
        for (dlib::vector<float, 2> &point : pixel_coordinates[i]) {
            float x = 0, y = 0;
            if (!in.pod(x) || !in.pod(y)) return false;
            point = dlib::vector<float, 2>(x, y);
        }
        for (const impl::regression_tree &tree : forests[i])
            for (const impl::split_feature &split : tree.splits)
                if (split.idx1 >= count || split.idx2 >= count) return false;
    }
    landmarks = shape_predictor(initial_shape, forests, pixel_coordinates);
    return true;
}

} // namespace gg
