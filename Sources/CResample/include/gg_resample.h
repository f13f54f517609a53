#ifndef GG_RESAMPLE_H
#define GG_RESAMPLE_H

#include <stdint.h>

/* The inner loops of gallerygen's Lanczos resampler for 8-bit planes, in C
   so they can use the best vector unit of the machine that runs the build:
   AVX2 with FMA where the CPU has it, SSE2 (every x86-64) otherwise, and on
   other architectures plain C that the compiler vectorises (NEON on arm64).
   The kernel is chosen once, at the first call (`__builtin_cpu_supports`),
   so the same binary runs on any x86-64. Used only by the Imaging module;
   its Swift resampler stays as the reference the tests compare against. */

/* Every function takes `kernel`: 0 for the one chosen for this CPU (what
   the build uses); tests name one: 1 SSE2, 2 portable C, 3 AVX2+FMA (only
   where `gg_resample_has(3)`). */

/* Planes (a JPEG's or HEIF's luma and chroma) are filtered in fixed point,
   eight output rows at a time, by two passes that every kernel computes to
   the same integers:

   Weights are Q14 (1.0 = 1 << GG_RESAMPLE_WEIGHT_BITS) and come in pairs
   of taps, because the vector units multiply two 16-bit pairs and add them
   in one instruction (pmaddwd: 16 products per AVX2 instruction where a
   float multiply-add makes 8, and no byte-to-float conversion). A filter's
   window starts on an even source row or column (a zero weight in front
   when it does not) and has `pairs` pairs of taps (zeros after it).

   The vertical pass: for x < width and r < 8,
     v = (bias + sum over k < 2 * pairs of weights[r * 2 * pairs + k] * window[first[r] + k][x])
         >> GG_RESAMPLE_VERTICAL_SHIFT, saturated to 16 bits,
   is (the filtered sample - GG_RESAMPLE_MIDPOINT) times 128: seven fraction
   bits for the second pass, over -128 ..< 384, which holds every sum a
   Lanczos filter's overshoot (its positive weights sum to at most 1.27) and
   a change of sample range (limited to full: x 1.164 - 18.6) make of bytes
   (six bits cost WebP previews 0.01 dB of PSNR). It is
   stored as pairs of columns side by side for the horizontal pass:
     out[((x / 2) * 8 + r) * 2 + x % 2] = v.
   `window` holds `window_rows` (even) source rows and every first[r] is
   even; `bias` is (the offset of a change of sample range -
   GG_RESAMPLE_MIDPOINT) times 1 << 14 (the range's scale is folded into
   the weights) plus half of 1 << GG_RESAMPLE_VERTICAL_SHIFT to round.
   `scratch` has room for window_rows * GG_RESAMPLE_STRIP values (each pair
   of window rows is widened to 16-bit pairs once per strip of columns, for
   all eight output rows); `out` for (width + 1) / 2 * 16. */
void gg_resample_vertical8(int kernel, const uint8_t *const *window, int window_rows, const int32_t *first,
                           const int16_t *weights, int pairs, int32_t bias, int16_t *scratch, int16_t *out, int width);

/* The 16-bit values per window row gg_resample_vertical8's scratch holds. */
#define GG_RESAMPLE_STRIP 32
#define GG_RESAMPLE_WEIGHT_BITS 14
#define GG_RESAMPLE_VERTICAL_SHIFT 7
#define GG_RESAMPLE_MIDPOINT 128
#define GG_RESAMPLE_HORIZONTAL_SHIFT 21
/* The horizontal weights sum to exactly 1 << 14, so the midpoint comes back
   as a constant, with the rounding. */
#define GG_RESAMPLE_HORIZONTAL_ROUND ((GG_RESAMPLE_MIDPOINT << GG_RESAMPLE_HORIZONTAL_SHIFT) + (1 << (GG_RESAMPLE_HORIZONTAL_SHIFT - 1)))

/* out[x] = sum over k < taps of weights[k] * rows[k][x], for x < width. */
void gg_resample_vertical(int kernel, const float *const *rows, const float *weights, int taps, float *out, int width);

/* The horizontal pass over the eight rows gg_resample_vertical8 wrote,
   output samples in groups of eight: for each r < rows and x < width,
     out[r * out_stride + x] = (GG_RESAMPLE_HORIZONTAL_ROUND + the sum over j < pairs of
         w0 * in[((starts[x] + j) * 8 + r) * 2] + w1 * in[((starts[x] + j) * 8 + r) * 2 + 1])
         >> GG_RESAMPLE_HORIZONTAL_SHIFT, clamped to 0...255,
   where starts[x] counts pairs of columns and w0 (low 16 bits) and w1 (high
   16 bits) are weights[((x / 8) * pairs + j) * 8 + x % 8]. Every output
   sample is a chain of multiply-add-pairs and adds (no sum across vector
   lanes); `in` must be readable (any values: their weights are zero) to the
   last pair any sample's window reaches. */
void gg_resample_horizontal8(int kernel, const int16_t *in, const int32_t *starts, const int32_t *weights, int pairs,
                             uint8_t *out, long out_stride, int rows, int width);

/* RGBA rows (four floats a pixel): out[x] = the sum over k < taps of
   weights[x * taps + k] * row[starts[x] + k], each a pixel of four floats. */
void gg_resample_horizontal_rgba(int kernel, const float *row, const int32_t *starts, const float *weights, int taps,
                                 float *out, int width);

/* A row of `width` pixels of `channels` (3 or 4) bytes to four floats a
   pixel: with `premultiply` (4 channels) colour times alpha / 255 and alpha
   as is; otherwise alpha 255. */
void gg_resample_load_rgba(int kernel, const uint8_t *row, int channels, int premultiply, float *out, int width);

/* Four floats a pixel back to bytes: with `premultiplied`, alpha clamped to
   0...255 and colour divided by alpha / 255 (0 where alpha is 0); every
   value clamped and rounded to the nearest byte; alpha 255 when not. */
void gg_resample_store_rgba(int kernel, const float *pixels, int premultiplied, uint8_t *out, int width);

/* A plane turned upright: out[y * width + x] = source[origin + x * step_x +
   y * step_y] for x < width, y < height (each EXIF orientation is such an
   affine walk). Quarter turns (step_y = +-1) go by 8 x 8 blocks transposed
   in registers: the walk down a stored column, a byte per cache line, was
   the slow part of turning a portrait photo's renditions. */
void gg_resample_turn(const uint8_t *source, long origin, long step_x, long step_y, uint8_t *out, int width, int height);

/* The name of a kernel ("avx2+fma", "sse2", "portable"); 0: the one chosen. */
const char *gg_resample_kernel_name(int kernel);

/* Whether this machine can run `kernel`. */
int gg_resample_has(int kernel);

#endif
