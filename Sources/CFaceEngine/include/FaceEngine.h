// The face detector and describer gallerygen runs over a photo's pixels:
// dlib's HOG frontal face detector, its 5-point shape predictor to align each
// face, and its ResNet face-recognition model (128-D descriptors). A small C
// interface so Swift never sees dlib's templates; every call catches what
// dlib throws and answers with a message instead.
#ifndef GALLERYGEN_FACE_ENGINE_H
#define GALLERYGEN_FACE_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The length of a face descriptor.
#define GG_FACE_DESCRIPTOR_LENGTH 128

typedef struct gg_face_engine gg_face_engine;

/// One face: its box in the pixels given (may reach past their edges), the
/// detector's confidence, and the descriptor of the aligned face.
typedef struct {
    float left, top, right, bottom;
    float score;
    float descriptor[GG_FACE_DESCRIPTOR_LENGTH];
} gg_face;

/// Opens the engine: from the cache at `cache_path` (may be NULL) when it
/// begins with `header` and holds a whole, undamaged engine (0.03 s), else
/// from the two model files and dlib's built-in detector (0.3 s); `*from_cache`
/// (may be NULL) tells which. NULL with a message in `error` when the model
/// files cannot be read.
gg_face_engine *gg_face_engine_open(const char *shape_predictor_path, const char *recognition_path, const char *cache_path,
                                    const char *header, int *from_cache, char *error, size_t error_size);

/// The engine as its cache holds it, `header` first (about 30 MB): its size
/// when `out` is NULL, else the bytes in `out` (0 when `capacity` is short).
/// 0 when it cannot be made: the first call checks that the aligner rebuilds
/// exactly (0.2 s).
/// The network lets go of what it kept of the faces it described last.
size_t gg_face_engine_cache(gg_face_engine *engine, const char *header, uint8_t *out, size_t capacity);

/// A copy sharing nothing with `engine` (the network keeps buffers per
/// call, so each thread uses its own); NULL when out of memory.
gg_face_engine *gg_face_engine_copy(const gg_face_engine *engine);

void gg_face_engine_close(gg_face_engine *engine);

/// 1 when the BLAS this process runs is OpenBLAS built single-threaded,
/// which is not safe to call from two threads at once: the engines then
/// describe faces one at a time (finding them still runs on every core).
int gg_face_engine_describes_one_at_a_time(void);

/// Finds the faces in an 8-bit RGB picture (`stride` bytes per row) and
/// describes up to `capacity` of them, the most confident first. A picture
/// whose longer side is over `largest_side` is searched at that size (the
/// detector's memory grows with the pixels), the faces described from the
/// whole. Returns how many faces were found (possibly more than
/// `capacity`), or -1 with a message in `error`.
int gg_face_engine_find(gg_face_engine *engine, const uint8_t *rgb, int width, int height, int stride, int largest_side,
                        double minimum_score, gg_face *faces, int capacity, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
