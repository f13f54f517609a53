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

/* The vertical pass of eight output rows at once, straight from 8-bit
   source rows, written side by side for the horizontal pass:
   out[x * 8 + r] = offset + the sum over k < taps of
   weights[r * taps + k] * window[first[r] + k][x], for x < width, r < 8.
   `window` holds the `window_rows` source rows the eight read; `scratch`
   has room for window_rows * 32 floats (each strip of 32 columns of the
   window is converted to float once, for all eight rows). A ring of
   source rows then holds bytes, and a change of sample range costs
   nothing: its scale is folded into the weights, its offset added once
   (the filter's weights sum to one). */
void gg_resample_vertical8(int kernel, const uint8_t *const *window, int window_rows, const int32_t *first,
                           const float *weights, int taps, float offset, float *scratch, float *out, int width);

/* The scratch floats per window row gg_resample_vertical8 needs. */
#define GG_RESAMPLE_STRIP 32

/* out[x] = sum over k < taps of weights[k] * rows[k][x], for x < width. */
void gg_resample_vertical(int kernel, const float *const *rows, const float *weights, int taps, float *out, int width);

/* The horizontal pass over eight rows at once (interleaved as gg_resample_vertical8 writes them),
   output samples in groups of eight: for each r < rows and x < width,
   out[r * out_stride + x] = the byte nearest to the sum over k < taps of
   weights[((x / 8) * taps + k) * 8 + x % 8] * in[(starts[x] + k) * 8 + r],
   clamped to 0...255. Every output sample is a chain of multiply-adds with
   a broadcast weight and no horizontal reduction, several times faster than
   one row at a time for the short filters of a preview. */
void gg_resample_horizontal8(int kernel, const float *in, const int32_t *starts, const float *weights, int taps,
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

/* The name of a kernel ("avx2+fma", "sse2", "portable"); 0: the one chosen. */
const char *gg_resample_kernel_name(int kernel);

/* Whether this machine can run `kernel`. */
int gg_resample_has(int kernel);

#endif
