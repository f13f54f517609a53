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

/* Converts `width` samples to float, each `s * scale + offset`. */
void gg_resample_load(int kernel, const uint8_t *samples, float *out, int width, float scale, float offset);

/* out[x] = sum over k < taps of weights[k] * rows[k][x], for x < width. */
void gg_resample_vertical(int kernel, const float *const *rows, const float *weights, int taps, float *out, int width);

/* out[x] = the byte nearest to the sum over k < stride of
   weights[x * stride + k] * column[starts[x] + k], clamped to 0...255.
   `stride` is a multiple of 4; weights past a pixel's taps are zero, and
   `column` may be read `stride` floats past its last sample (zeros). */
void gg_resample_horizontal(int kernel, const float *column, const int32_t *starts, const float *weights, int stride,
                            uint8_t *out, int width);

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
