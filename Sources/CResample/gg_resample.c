#include "gg_resample.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#define GG_X86 1
#include <immintrin.h>
#endif

/* 0: not chosen yet, 1: SSE2, 2: portable, 3: AVX2+FMA, 4: AVX2+FMA with
   AVX-512 VNNI's byte dot products for the planes' vertical pass. Read on every call
   (a switch costs nothing next to a row of work), written once; the race of
   two first calls is harmless, both write the same value. */
static int chosen_kernel = 0;

static int best_kernel(void) {
#if GG_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl")
            && __builtin_cpu_supports("avx512vnni")) return 4;
        return 3;
    }
    return 1;
#else
    return 2;
#endif
}

static int kernel(int asked) {
    if (asked != 0) return asked;
    int k = __atomic_load_n(&chosen_kernel, __ATOMIC_RELAXED);
    if (k == 0) {
        k = best_kernel();
        __atomic_store_n(&chosen_kernel, k, __ATOMIC_RELAXED);
    }
    return k;
}

const char *gg_resample_kernel_name(int which) {
    switch (kernel(which)) {
    case 4: return "avx512-vnni";
    case 3: return "avx2+fma";
    case 1: return "sse2";
    default: return "portable";
    }
}

int gg_resample_has(int which) {
#if GG_X86
    return which == 1 || which == 2 || (which == 3 && best_kernel() >= 3) || (which == 4 && best_kernel() == 4);
#else
    return which == 2;
#endif
}

/* The byte nearest to v, clamped (round half to even, like the vector paths). */
static inline uint8_t to_byte(float v) {
    if (!(v > 0)) return 0;  /* also NaN */
    if (v >= 255) return 255;
    return (uint8_t)nearbyintf(v);
}

/* ---- Portable C (and the tails of the vector kernels) ---- */

static void vertical_portable(const float *const *rows, const float *weights, int taps, float *restrict out, int from, int width) {
    for (int x = from; x < width; x++) {
        float sum = 0;
        for (int k = 0; k < taps; k++) sum += weights[k] * rows[k][x];
        out[x] = sum;
    }
}

/* ---- The eight-row plane passes in fixed point (see the header) ----
   Every kernel below computes exactly the same integers as these two. */

static inline int16_t saturate16(int32_t v) { return (int16_t)(v > 32767 ? 32767 : (v < -32768 ? -32768 : v)); }
static inline uint8_t clamp_byte(int32_t v) { return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v)); }

/* Columns from `from` on of the vertical pass, 32 at a time with the
   columns innermost (what a compiler vectorises: NEON on arm64). Right
   shifts of negative sums are arithmetic with every compiler this builds
   with, as the vector shifts are. */
static void vertical8_portable(const uint8_t *const *window, const int32_t *first, const int16_t *weights, int pairs,
                               int32_t bias, int16_t *restrict out, int from, int width) {
    for (int x0 = from; x0 < width; x0 += 32) {
        const int n = width - x0 < 32 ? width - x0 : 32;
        for (int r = 0; r < 8; r++) {
            const int16_t *w = weights + r * pairs * 2;
            const uint8_t *const *rows = window + first[r];
            int32_t sum[32];
            for (int i = 0; i < 32; i++) sum[i] = bias;
            for (int k = 0; k < pairs * 2; k++) {
                const uint8_t *row = rows[k] + x0;
                const int32_t wk = w[k];
                if (n == 32) {
                    for (int i = 0; i < 32; i++) sum[i] += (int32_t)row[i] * wk;
                } else {
                    for (int i = 0; i < n; i++) sum[i] += (int32_t)row[i] * wk;
                }
            }
            for (int i = 0; i < n; i++) {
                const int x = x0 + i;
                out[((size_t)(x >> 1) * 8 + r) * 2 + (x & 1)] = saturate16(sum[i] >> GG_RESAMPLE_VERTICAL_SHIFT);
            }
        }
    }
}

/* Output samples from `from` on of the horizontal pass. */
static void horizontal8_portable(const int16_t *in, const int32_t *starts, const int32_t *weights, int pairs,
                                 uint8_t *out, long out_stride, int rows, int from, int width) {
    for (int x = from; x < width; x++) {
        const int32_t *w = weights + (size_t)(x / 8) * pairs * 8 + x % 8;
        const int16_t *s = in + (size_t)starts[x] * 16;
        int32_t sum[8];
        for (int r = 0; r < 8; r++) sum[r] = GG_RESAMPLE_HORIZONTAL_ROUND;
        for (int j = 0; j < pairs; j++) {
            const uint32_t both = (uint32_t)w[j * 8];
            const int32_t w0 = (int16_t)(uint16_t)(both & 0xFFFF), w1 = (int16_t)(uint16_t)(both >> 16);
            for (int r = 0; r < 8; r++) sum[r] += s[j * 16 + r * 2] * w0 + s[j * 16 + r * 2 + 1] * w1;
        }
        for (int r = 0; r < rows; r++) out[r * out_stride + x] = clamp_byte(sum[r] >> GG_RESAMPLE_HORIZONTAL_SHIFT);
    }
}

static void horizontal_rgba_portable(const float *row, const int32_t *starts, const float *weights, int taps,
                                     float *restrict out, int from, int width) {
    for (int x = from; x < width; x++) {
        const float *s = row + (size_t)starts[x] * 4;
        const float *w = weights + (size_t)x * taps;
        float r = 0, g = 0, b = 0, a = 0;
        for (int k = 0; k < taps; k++) {
            r += w[k] * s[k * 4]; g += w[k] * s[k * 4 + 1]; b += w[k] * s[k * 4 + 2]; a += w[k] * s[k * 4 + 3];
        }
        out[x * 4] = r; out[x * 4 + 1] = g; out[x * 4 + 2] = b; out[x * 4 + 3] = a;
    }
}

static void load_rgba_portable(const uint8_t *row, int channels, int premultiply, float *restrict out, int from, int width) {
    for (int x = from; x < width; x++) {
        const uint8_t *p = row + (size_t)x * channels;
        float *o = out + (size_t)x * 4;
        if (premultiply) {
            float a = p[3], f = a * (1.0f / 255.0f);
            o[0] = p[0] * f; o[1] = p[1] * f; o[2] = p[2] * f; o[3] = a;
        } else {
            o[0] = p[0]; o[1] = p[1]; o[2] = p[2]; o[3] = 255;
        }
    }
}

static void store_rgba_portable(const float *pixels, int premultiplied, uint8_t *restrict out, int from, int width) {
    for (int x = from; x < width; x++) {
        const float *v = pixels + (size_t)x * 4;
        uint8_t *o = out + (size_t)x * 4;
        if (premultiplied) {
            float a = v[3] < 0 ? 0 : (v[3] > 255 ? 255 : v[3]);
            float f = a > 0 ? 255.0f / a : 0;
            o[0] = to_byte(v[0] * f); o[1] = to_byte(v[1] * f); o[2] = to_byte(v[2] * f); o[3] = to_byte(a);
        } else {
            o[0] = to_byte(v[0]); o[1] = to_byte(v[1]); o[2] = to_byte(v[2]); o[3] = 255;
        }
    }
}

#if GG_X86
/* ---- SSE2: every x86-64 ---- */

static void horizontal_rgba_sse2(const float *row, const int32_t *starts, const float *weights, int taps, float *out, int width) {
    for (int x = 0; x < width; x++) {
        const float *s = row + (size_t)starts[x] * 4;
        const float *w = weights + (size_t)x * taps;
        /* Four accumulators: one chain of dependent adds would wait on each. */
        __m128 a0 = _mm_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        int k = 0;
        for (; k + 4 <= taps; k += 4) {
            a0 = _mm_add_ps(a0, _mm_mul_ps(_mm_set1_ps(w[k]), _mm_loadu_ps(s + k * 4)));
            a1 = _mm_add_ps(a1, _mm_mul_ps(_mm_set1_ps(w[k + 1]), _mm_loadu_ps(s + k * 4 + 4)));
            a2 = _mm_add_ps(a2, _mm_mul_ps(_mm_set1_ps(w[k + 2]), _mm_loadu_ps(s + k * 4 + 8)));
            a3 = _mm_add_ps(a3, _mm_mul_ps(_mm_set1_ps(w[k + 3]), _mm_loadu_ps(s + k * 4 + 12)));
        }
        for (; k < taps; k++) a0 = _mm_add_ps(a0, _mm_mul_ps(_mm_set1_ps(w[k]), _mm_loadu_ps(s + k * 4)));
        _mm_storeu_ps(out + (size_t)x * 4, _mm_add_ps(_mm_add_ps(a0, a1), _mm_add_ps(a2, a3)));
    }
}

static void vertical_sse2(const float *const *rows, const float *weights, int taps, float *out, int width) {
    int x = 0;
    for (; x + 16 <= width; x += 16) {
        __m128 a0 = _mm_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        for (int k = 0; k < taps; k++) {
            const __m128 w = _mm_set1_ps(weights[k]);
            const float *r = rows[k] + x;
            a0 = _mm_add_ps(a0, _mm_mul_ps(w, _mm_loadu_ps(r)));
            a1 = _mm_add_ps(a1, _mm_mul_ps(w, _mm_loadu_ps(r + 4)));
            a2 = _mm_add_ps(a2, _mm_mul_ps(w, _mm_loadu_ps(r + 8)));
            a3 = _mm_add_ps(a3, _mm_mul_ps(w, _mm_loadu_ps(r + 12)));
        }
        _mm_storeu_ps(out + x, a0);
        _mm_storeu_ps(out + x + 4, a1);
        _mm_storeu_ps(out + x + 8, a2);
        _mm_storeu_ps(out + x + 12, a3);
    }
    vertical_portable(rows, weights, taps, out, x, width);
}

/* The vertical pass, 16 columns at a time: each pair of window rows once
   to 16-bit pairs (row 2p and 2p + 1 side by side), then every output row
   a sum of `pairs` multiply-add-pairs (pmaddwd) per four columns. */
static void vertical8_sse2(const uint8_t *const *window, int window_rows, const int32_t *first, const int16_t *weights, int pairs,
                           int32_t bias, int16_t *scratch, int16_t *out, int width) {
    const __m128i zero = _mm_setzero_si128(), start = _mm_set1_epi32(bias);
    __m128i *pairs_of_rows = (__m128i *)scratch;  /* four vectors (16 columns) per pair of window rows */
    int x0 = 0;
    for (; x0 + 16 <= width; x0 += 16) {
        for (int p = 0; p + 1 < window_rows; p += 2) {
            __m128i a = _mm_loadu_si128((const __m128i *)(window[p] + x0)), b = _mm_loadu_si128((const __m128i *)(window[p + 1] + x0));
            __m128i al = _mm_unpacklo_epi8(a, zero), ah = _mm_unpackhi_epi8(a, zero);
            __m128i bl = _mm_unpacklo_epi8(b, zero), bh = _mm_unpackhi_epi8(b, zero);
            __m128i *s = pairs_of_rows + (p / 2) * 4;
            s[0] = _mm_unpacklo_epi16(al, bl);
            s[1] = _mm_unpackhi_epi16(al, bl);
            s[2] = _mm_unpacklo_epi16(ah, bh);
            s[3] = _mm_unpackhi_epi16(ah, bh);
        }
        __m128i rows[8][2];  /* each row's 16 results: columns 0-7, 8-15 */
        for (int r = 0; r < 8; r++) {
            const __m128i *s = pairs_of_rows + (first[r] / 2) * 4;
            const int32_t *w = (const int32_t *)(const void *)(weights + r * pairs * 2);
            __m128i a0 = start, a1 = start, a2 = start, a3 = start;
            for (int j = 0; j < pairs; j++) {
                const __m128i wj = _mm_set1_epi32(w[j]);
                a0 = _mm_add_epi32(a0, _mm_madd_epi16(s[j * 4], wj));
                a1 = _mm_add_epi32(a1, _mm_madd_epi16(s[j * 4 + 1], wj));
                a2 = _mm_add_epi32(a2, _mm_madd_epi16(s[j * 4 + 2], wj));
                a3 = _mm_add_epi32(a3, _mm_madd_epi16(s[j * 4 + 3], wj));
            }
            rows[r][0] = _mm_packs_epi32(_mm_srai_epi32(a0, GG_RESAMPLE_VERTICAL_SHIFT), _mm_srai_epi32(a1, GG_RESAMPLE_VERTICAL_SHIFT));
            rows[r][1] = _mm_packs_epi32(_mm_srai_epi32(a2, GG_RESAMPLE_VERTICAL_SHIFT), _mm_srai_epi32(a3, GG_RESAMPLE_VERTICAL_SHIFT));
        }
        /* A pair of columns is 32 bits: 4x4 transposes of them give, per
           pair, rows 0-3 and then rows 4-7. */
        for (int half = 0; half < 2; half++)      /* pairs 0-3, 4-7 */
            for (int group = 0; group < 2; group++) {  /* rows 0-3, 4-7 */
                __m128 r0 = _mm_castsi128_ps(rows[group * 4][half]), r1 = _mm_castsi128_ps(rows[group * 4 + 1][half]);
                __m128 r2 = _mm_castsi128_ps(rows[group * 4 + 2][half]), r3 = _mm_castsi128_ps(rows[group * 4 + 3][half]);
                _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
                int16_t *o = out + ((size_t)(x0 / 2) + half * 4) * 16 + group * 8;
                _mm_storeu_si128((__m128i *)o, _mm_castps_si128(r0));
                _mm_storeu_si128((__m128i *)(o + 16), _mm_castps_si128(r1));
                _mm_storeu_si128((__m128i *)(o + 32), _mm_castps_si128(r2));
                _mm_storeu_si128((__m128i *)(o + 48), _mm_castps_si128(r3));
            }
    }
    vertical8_portable(window, first, weights, pairs, bias, out, x0, width);
}

/* Four output samples of four rows (sums, one vector per sample) to bytes in four rows. */
static inline void store4x4_sse2(__m128i s0, __m128i s1, __m128i s2, __m128i s3, uint8_t *out, long out_stride, int rows) {
    __m128 r0 = _mm_castsi128_ps(s0), r1 = _mm_castsi128_ps(s1), r2 = _mm_castsi128_ps(s2), r3 = _mm_castsi128_ps(s3);
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    __m128i i01 = _mm_packs_epi32(_mm_srai_epi32(_mm_castps_si128(r0), GG_RESAMPLE_HORIZONTAL_SHIFT),
                                  _mm_srai_epi32(_mm_castps_si128(r1), GG_RESAMPLE_HORIZONTAL_SHIFT));
    __m128i i23 = _mm_packs_epi32(_mm_srai_epi32(_mm_castps_si128(r2), GG_RESAMPLE_HORIZONTAL_SHIFT),
                                  _mm_srai_epi32(_mm_castps_si128(r3), GG_RESAMPLE_HORIZONTAL_SHIFT));
    __m128i u8 = _mm_packus_epi16(i01, i23);
    int32_t four[4];
    _mm_storeu_si128((__m128i *)four, u8);
    for (int r = 0; r < rows && r < 4; r++) memcpy(out + r * out_stride, &four[r], 4);
}

static void horizontal8_sse2(const int16_t *in, const int32_t *starts, const int32_t *weights, int pairs,
                             uint8_t *out, long out_stride, int rows, int width) {
    const __m128i round = _mm_set1_epi32(GG_RESAMPLE_HORIZONTAL_ROUND);
    int groups = width / 8;
    for (int g = 0; g < groups; g++) {
        const int32_t *w = weights + (size_t)g * pairs * 8;
        /* Four output samples at a time: eight sums (each four rows) in flight. */
        for (int j0 = 0; j0 < 8; j0 += 4) {
            int x = g * 8 + j0;
            const __m128i *s0 = (const __m128i *)(in + (size_t)starts[x] * 16), *s1 = (const __m128i *)(in + (size_t)starts[x + 1] * 16);
            const __m128i *s2 = (const __m128i *)(in + (size_t)starts[x + 2] * 16), *s3 = (const __m128i *)(in + (size_t)starts[x + 3] * 16);
            __m128i l0 = round, l1 = round, l2 = round, l3 = round, h0 = round, h1 = round, h2 = round, h3 = round;
            for (int j = 0; j < pairs; j++) {
                const __m128i four = _mm_loadu_si128((const __m128i *)(w + j * 8 + j0));
                const __m128i w0 = _mm_shuffle_epi32(four, 0x00), w1 = _mm_shuffle_epi32(four, 0x55);
                const __m128i w2 = _mm_shuffle_epi32(four, 0xAA), w3 = _mm_shuffle_epi32(four, 0xFF);
                l0 = _mm_add_epi32(l0, _mm_madd_epi16(_mm_loadu_si128(s0 + j * 2), w0));
                h0 = _mm_add_epi32(h0, _mm_madd_epi16(_mm_loadu_si128(s0 + j * 2 + 1), w0));
                l1 = _mm_add_epi32(l1, _mm_madd_epi16(_mm_loadu_si128(s1 + j * 2), w1));
                h1 = _mm_add_epi32(h1, _mm_madd_epi16(_mm_loadu_si128(s1 + j * 2 + 1), w1));
                l2 = _mm_add_epi32(l2, _mm_madd_epi16(_mm_loadu_si128(s2 + j * 2), w2));
                h2 = _mm_add_epi32(h2, _mm_madd_epi16(_mm_loadu_si128(s2 + j * 2 + 1), w2));
                l3 = _mm_add_epi32(l3, _mm_madd_epi16(_mm_loadu_si128(s3 + j * 2), w3));
                h3 = _mm_add_epi32(h3, _mm_madd_epi16(_mm_loadu_si128(s3 + j * 2 + 1), w3));
            }
            store4x4_sse2(l0, l1, l2, l3, out + x, out_stride, rows);
            if (rows > 4) store4x4_sse2(h0, h1, h2, h3, out + 4 * out_stride + x, out_stride, rows - 4);
        }
    }
    horizontal8_portable(in, starts, weights, pairs, out, out_stride, rows, groups * 8, width);
}

/* ---- AVX2 + FMA ---- */

__attribute__((target("avx2,fma")))
static void vertical_avx2(const float *const *rows, const float *weights, int taps, float *out, int width) {
    int x = 0;
    for (; x + 32 <= width; x += 32) {
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        for (int k = 0; k < taps; k++) {
            const __m256 w = _mm256_set1_ps(weights[k]);
            const float *r = rows[k] + x;
            a0 = _mm256_fmadd_ps(w, _mm256_loadu_ps(r), a0);
            a1 = _mm256_fmadd_ps(w, _mm256_loadu_ps(r + 8), a1);
            a2 = _mm256_fmadd_ps(w, _mm256_loadu_ps(r + 16), a2);
            a3 = _mm256_fmadd_ps(w, _mm256_loadu_ps(r + 24), a3);
        }
        _mm256_storeu_ps(out + x, a0);
        _mm256_storeu_ps(out + x + 8, a1);
        _mm256_storeu_ps(out + x + 16, a2);
        _mm256_storeu_ps(out + x + 24, a3);
    }
    for (; x + 8 <= width; x += 8) {
        __m256 a = _mm256_setzero_ps();
        for (int k = 0; k < taps; k++) a = _mm256_fmadd_ps(_mm256_set1_ps(weights[k]), _mm256_loadu_ps(rows[k] + x), a);
        _mm256_storeu_ps(out + x, a);
    }
    vertical_portable(rows, weights, taps, out, x, width);
}

__attribute__((target("avx2,fma")))
static void load_rgba_avx2(const uint8_t *row, int channels, int premultiply, float *out, int width) {
    int x = 0;
    if (channels == 4) {
        const __m256 scale = _mm256_set1_ps(1.0f / 255.0f);
        for (; x + 2 <= width; x += 2) {
            long long eight;
            memcpy(&eight, row + (size_t)x * 4, 8);
            __m256 v = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_cvtsi64_si128(eight)));
            if (premultiply) {
                __m256 alpha = _mm256_permute_ps(v, 0xFF);  /* each pixel's alpha in its four lanes */
                __m256 colour = _mm256_mul_ps(v, _mm256_mul_ps(alpha, scale));
                v = _mm256_blend_ps(colour, v, 0x88);       /* alpha itself stays */
            } else {
                v = _mm256_blend_ps(v, _mm256_set1_ps(255), 0x88);
            }
            _mm256_storeu_ps(out + (size_t)x * 4, v);
        }
    }
    load_rgba_portable(row, channels, premultiply, out, x, width);
}

__attribute__((target("avx2,fma")))
static void store_rgba_avx2(const float *pixels, int premultiplied, uint8_t *out, int width) {
    const __m256 zero = _mm256_setzero_ps(), full = _mm256_set1_ps(255);
    int x = 0;
    for (; x + 4 <= width; x += 4) {
        __m256 v0 = _mm256_loadu_ps(pixels + (size_t)x * 4), v1 = _mm256_loadu_ps(pixels + (size_t)x * 4 + 8);
        if (premultiplied) {
            __m256 a0 = _mm256_min_ps(_mm256_max_ps(_mm256_permute_ps(v0, 0xFF), zero), full);
            __m256 a1 = _mm256_min_ps(_mm256_max_ps(_mm256_permute_ps(v1, 0xFF), zero), full);
            /* 255 / alpha, or 0 where alpha is 0 (the division's infinity masked away). */
            __m256 f0 = _mm256_and_ps(_mm256_div_ps(full, a0), _mm256_cmp_ps(a0, zero, _CMP_GT_OQ));
            __m256 f1 = _mm256_and_ps(_mm256_div_ps(full, a1), _mm256_cmp_ps(a1, zero, _CMP_GT_OQ));
            v0 = _mm256_blend_ps(_mm256_mul_ps(v0, f0), a0, 0x88);
            v1 = _mm256_blend_ps(_mm256_mul_ps(v1, f1), a1, 0x88);
        } else {
            v0 = _mm256_blend_ps(v0, full, 0x88);
            v1 = _mm256_blend_ps(v1, full, 0x88);
        }
        v0 = _mm256_min_ps(_mm256_max_ps(v0, zero), full);
        v1 = _mm256_min_ps(_mm256_max_ps(v1, zero), full);
        __m256i i0 = _mm256_cvtps_epi32(v0), i1 = _mm256_cvtps_epi32(v1);
        /* packs work within 128-bit halves: restore pixel order after. */
        __m256i i16 = _mm256_packs_epi32(i0, i1);             /* p0 p2 | p1 p3 as 16-bit */
        __m256i u8 = _mm256_packus_epi16(i16, i16);            /* p0 p2 p0 p2 | p1 p3 p1 p3 */
        __m256i ordered = _mm256_permutevar8x32_epi32(u8, _mm256_setr_epi32(0, 4, 1, 5, 0, 0, 0, 0));
        _mm_storeu_si128((__m128i *)(out + (size_t)x * 4), _mm256_castsi256_si128(ordered));
    }
    store_rgba_portable(pixels, premultiplied, out, x, width);
}

__attribute__((target("avx2,fma")))
static void horizontal_rgba_avx2(const float *row, const int32_t *starts, const float *weights, int taps, float *out, int width) {
    for (int x = 0; x < width; x++) {
        const float *s = row + (size_t)starts[x] * 4;
        const float *w = weights + (size_t)x * taps;
        /* Two taps (two pixels) per vector: the weight of tap k in the low
           half, of tap k + 1 in the high half; two accumulators. */
        __m256 a0 = _mm256_setzero_ps(), a1 = a0;
        int k = 0;
        for (; k + 4 <= taps; k += 4) {
            __m256 w01 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_set1_ps(w[k])), _mm_set1_ps(w[k + 1]), 1);
            __m256 w23 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_set1_ps(w[k + 2])), _mm_set1_ps(w[k + 3]), 1);
            a0 = _mm256_fmadd_ps(w01, _mm256_loadu_ps(s + k * 4), a0);
            a1 = _mm256_fmadd_ps(w23, _mm256_loadu_ps(s + k * 4 + 8), a1);
        }
        for (; k + 2 <= taps; k += 2) {
            __m256 w01 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_set1_ps(w[k])), _mm_set1_ps(w[k + 1]), 1);
            a0 = _mm256_fmadd_ps(w01, _mm256_loadu_ps(s + k * 4), a0);
        }
        __m256 a = _mm256_add_ps(a0, a1);
        __m128 sum = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
        if (k < taps) sum = _mm_fmadd_ps(_mm_set1_ps(w[k]), _mm_loadu_ps(s + k * 4), sum);
        _mm_storeu_ps(out + (size_t)x * 4, sum);
    }
}

/* Rows of eight 32-bit lanes become columns: on return r[i] holds lane i
   of every input row. */
__attribute__((target("avx2,fma")))
static inline void transpose8_avx2(__m256i v[8]) {
    __m256 r[8];
    for (int i = 0; i < 8; i++) r[i] = _mm256_castsi256_ps(v[i]);
    __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    __m256 s0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)), s1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    __m256 s2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)), s3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    __m256 s4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0)), s5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
    __m256 s6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0)), s7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
    v[0] = _mm256_castps_si256(_mm256_permute2f128_ps(s0, s4, 0x20));
    v[1] = _mm256_castps_si256(_mm256_permute2f128_ps(s1, s5, 0x20));
    v[2] = _mm256_castps_si256(_mm256_permute2f128_ps(s2, s6, 0x20));
    v[3] = _mm256_castps_si256(_mm256_permute2f128_ps(s3, s7, 0x20));
    v[4] = _mm256_castps_si256(_mm256_permute2f128_ps(s0, s4, 0x31));
    v[5] = _mm256_castps_si256(_mm256_permute2f128_ps(s1, s5, 0x31));
    v[6] = _mm256_castps_si256(_mm256_permute2f128_ps(s2, s6, 0x31));
    v[7] = _mm256_castps_si256(_mm256_permute2f128_ps(s3, s7, 0x31));
}

/* Lane i (of four) of each 128-bit half, in every lane: a weight pair
   broadcast by a shuffle, not by one more load (loads are what these
   loops wait on). */
#define GG_LANE(v, i) _mm256_shuffle_epi32(v, (i) * 0x55)

/* One multiply-add-pair step of two output rows over 32 columns. */
#define GG_V8_STEP(U, V, J) { \
    const __m256i u_ = (U), v_ = (V); \
    a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(s[(J) * 4], u_)); \
    a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(s[(J) * 4 + 1], u_)); \
    a2 = _mm256_add_epi32(a2, _mm256_madd_epi16(s[(J) * 4 + 2], u_)); \
    a3 = _mm256_add_epi32(a3, _mm256_madd_epi16(s[(J) * 4 + 3], u_)); \
    b0 = _mm256_add_epi32(b0, _mm256_madd_epi16(t[(J) * 4], v_)); \
    b1 = _mm256_add_epi32(b1, _mm256_madd_epi16(t[(J) * 4 + 1], v_)); \
    b2 = _mm256_add_epi32(b2, _mm256_madd_epi16(t[(J) * 4 + 2], v_)); \
    b3 = _mm256_add_epi32(b3, _mm256_madd_epi16(t[(J) * 4 + 3], v_)); }

/* Sums of 8 columns (two vectors of 32-bit sums: columns 0-3 and 8-11, 4-7
   and 12-15) to 16 filtered samples in order (in-lane packing undoes the
   widening's order). */
#define GG_V8_PACK(LO, HI) _mm256_packs_epi32(_mm256_srai_epi32(LO, GG_RESAMPLE_VERTICAL_SHIFT), \
                                              _mm256_srai_epi32(HI, GG_RESAMPLE_VERTICAL_SHIFT))

/* Two window rows' 16 columns at x widened to 16-bit pairs: columns 0-3 and
   8-11 in the first vector, 4-7 and 12-15 in the second. */
__attribute__((target("avx2,fma")))
static inline void widen_pair_avx2(const uint8_t *a, const uint8_t *b, __m256i *out) {
    __m256i wa = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)a));
    __m256i wb = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)b));
    out[0] = _mm256_unpacklo_epi16(wa, wb);
    out[1] = _mm256_unpackhi_epi16(wa, wb);
}

/* The vertical pass, 32 columns at a time (then 16, then the portable
   loop): each pair of window rows once to 16-bit pairs, then two output
   rows at a time, a multiply-add-pair (pmaddwd: 16 products) and an add per
   vector and pair of taps: eight accumulators, one broadcast weight per four
   multiply-add-pairs. The sums' chains are adds alone (one cycle), so the
   multipliers never wait on them; what the loop waits on is loads. */
__attribute__((target("avx2,fma")))
static void vertical8_avx2(const uint8_t *const *window, int window_rows, const int32_t *first, const int16_t *weights, int pairs,
                           int32_t bias, int16_t *scratch, int16_t *out, int from, int width) {
    const __m256i start = _mm256_set1_epi32(bias);
    __m256i *pairs_of_rows = (__m256i *)(void *)scratch;  /* four vectors per pair of window rows (32 columns) */
    int x0 = from;
    for (; x0 + 32 <= width; x0 += 32) {
        /* The next cache line of every window row is asked for now: the
           rows are the decoder's own (read in place, not copied into a
           ring), and the widening's loads were a third of this pass. */
        for (int p = 0; p + 1 < window_rows; p += 2) {
            _mm_prefetch((const char *)(window[p] + x0 + 128), _MM_HINT_T0);
            _mm_prefetch((const char *)(window[p + 1] + x0 + 128), _MM_HINT_T0);
            widen_pair_avx2(window[p] + x0, window[p + 1] + x0, pairs_of_rows + p * 2);
            widen_pair_avx2(window[p] + x0 + 16, window[p + 1] + x0 + 16, pairs_of_rows + p * 2 + 2);
        }
        __m256i left[8], right[8];  /* each row's columns 0-15 and 16-31 */
        for (int r = 0; r < 8; r += 2) {
            const __m256i *s = pairs_of_rows + first[r] * 2, *t = pairs_of_rows + first[r + 1] * 2;
            const int32_t *w = (const int32_t *)(const void *)(weights + r * pairs * 2);
            const int32_t *v = (const int32_t *)(const void *)(weights + (r + 1) * pairs * 2);
            __m256i a0 = start, a1 = start, a2 = start, a3 = start, b0 = start, b1 = start, b2 = start, b3 = start;
            for (int j = 0; j < pairs; j++) GG_V8_STEP(_mm256_set1_epi32(w[j]), _mm256_set1_epi32(v[j]), j)
            left[r] = GG_V8_PACK(a0, a1);
            right[r] = GG_V8_PACK(a2, a3);
            left[r + 1] = GG_V8_PACK(b0, b1);
            right[r + 1] = GG_V8_PACK(b2, b3);
        }
        /* A pair of columns is 32 bits: transposed, vector j is pair j of rows 0-7. */
        transpose8_avx2(left);
        transpose8_avx2(right);
        __m256i *o = (__m256i *)(void *)(out + (size_t)(x0 / 2) * 16);
        for (int j = 0; j < 8; j++) {
            _mm256_storeu_si256(o + j, left[j]);
            _mm256_storeu_si256(o + 8 + j, right[j]);
        }
    }
    for (; x0 + 16 <= width; x0 += 16) {
        for (int p = 0; p + 1 < window_rows; p += 2) widen_pair_avx2(window[p] + x0, window[p + 1] + x0, pairs_of_rows + p);
        __m256i rows[8];
        for (int r = 0; r < 8; r++) {
            const __m256i *s = pairs_of_rows + first[r];
            const int32_t *w = (const int32_t *)(const void *)(weights + r * pairs * 2);
            __m256i a0 = start, a1 = start;
            for (int j = 0; j < pairs; j++) {
                const __m256i u = _mm256_set1_epi32(w[j]);
                a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(s[j * 2], u));
                a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(s[j * 2 + 1], u));
            }
            rows[r] = GG_V8_PACK(a0, a1);
        }
        transpose8_avx2(rows);
        __m256i *o = (__m256i *)(void *)(out + (size_t)(x0 / 2) * 16);
        for (int j = 0; j < 8; j++) _mm256_storeu_si256(o + j, rows[j]);
    }
    vertical8_portable(window, first, weights, pairs, bias, out, x0, width);
}

/* The vertical pass with AVX-512 VNNI (256-bit vectors): vpdpbusd multiplies
   four unsigned bytes by four signed bytes and adds the four products to a
   32-bit sum in one instruction. Source bytes need no widening, only
   interleaving (four window rows' samples of a column side by side), and
   each Q14 weight w is split into two bytes, w = hi * 256 + lo with lo in
   -128...127: two dot products of the same interleaved samples, one with
   the his and one with the los, make sum(w * x) = 256 * sum(hi * x) +
   sum(lo * x) exactly, so the integers are the other kernels'. Per 32
   columns a quad of rows costs four loads and eight dot products (32
   products each) where pairs of 16-bit taps cost eight loads, eight
   multiply-add-pairs (16 products each) and eight adds: the pass was bound
   by its loads. A window then starts on a multiple of four rows (a zero
   pair in front when it starts on 4k + 2). */
#define GG_QUADS_MOST 64
__attribute__((target("avx2,fma,avx512f,avx512bw,avx512vl,avx512vnni")))
static void vertical8_vnni(const uint8_t *const *window, int window_rows, const int32_t *first, const int16_t *weights, int pairs,
                           int32_t bias, int16_t *scratch, int16_t *out, int width) {
    /* Each row's weights as quads of bytes, his and los: row r's quad j
       covers window rows 4 * (first[r] / 4 + j) + 0...3. */
    const int quads = (window_rows + 3) / 4, taps = pairs * 2, row_quads_most = (taps + 2 + 3) / 4;
    if (quads > GG_QUADS_MOST || row_quads_most > GG_QUADS_MOST || width < 32) {
        vertical8_avx2(window, window_rows, first, weights, pairs, bias, scratch, out, 0, width);
        return;
    }
    int32_t his[8 * GG_QUADS_MOST], los[8 * GG_QUADS_MOST];
    int count[8], first_quad[8];
    for (int r = 0; r < 8; r++) {
        const int phase = first[r] & 3;
        first_quad[r] = first[r] >> 2;
        count[r] = (phase + taps + 3) / 4;
        if (first_quad[r] + count[r] > quads) count[r] = quads - first_quad[r];  /* only zero weights lie past the window */
        for (int j = 0; j < count[r]; j++) {
            uint32_t hi = 0, lo = 0;
            for (int i = 0; i < 4; i++) {
                const int k = j * 4 + i - phase;
                const int32_t w = k >= 0 && k < taps ? weights[r * taps + k] : 0;
                const int32_t h = (w + 128) >> 8, l = w - h * 256;
                hi |= (uint32_t)(uint8_t)(int8_t)h << (8 * i);
                lo |= (uint32_t)(uint8_t)(int8_t)l << (8 * i);
            }
            his[r * row_quads_most + j] = (int32_t)hi;
            los[r * row_quads_most + j] = (int32_t)lo;
        }
    }
    const __m256i start = _mm256_set1_epi32(bias);
    __m256i *interleaved = (__m256i *)(void *)scratch;  /* four vectors per quad of window rows (32 columns) */
    const uint8_t *last = window[window_rows - 1];
    int x0 = 0;
    for (; x0 + 32 <= width; x0 += 32) {
        for (int q = 0; q < quads; q++) {
            const int row = q * 4;
            const uint8_t *ra = window[row], *rb = window[row + 1];
            const uint8_t *rc = row + 2 < window_rows ? window[row + 2] : last, *rd = row + 3 < window_rows ? window[row + 3] : last;
            _mm_prefetch((const char *)(ra + x0 + 128), _MM_HINT_T0);
            _mm_prefetch((const char *)(rb + x0 + 128), _MM_HINT_T0);
            _mm_prefetch((const char *)(rc + x0 + 128), _MM_HINT_T0);
            _mm_prefetch((const char *)(rd + x0 + 128), _MM_HINT_T0);
            const __m256i a = _mm256_loadu_si256((const __m256i *)(ra + x0)), b = _mm256_loadu_si256((const __m256i *)(rb + x0));
            const __m256i c = _mm256_loadu_si256((const __m256i *)(rc + x0)), d = _mm256_loadu_si256((const __m256i *)(rd + x0));
            const __m256i ab_lo = _mm256_unpacklo_epi8(a, b), ab_hi = _mm256_unpackhi_epi8(a, b);
            const __m256i cd_lo = _mm256_unpacklo_epi8(c, d), cd_hi = _mm256_unpackhi_epi8(c, d);
            /* Columns 0-3 | 16-19, 4-7 | 20-23, 8-11 | 24-27, 12-15 | 28-31. */
            interleaved[q * 4] = _mm256_unpacklo_epi16(ab_lo, cd_lo);
            interleaved[q * 4 + 1] = _mm256_unpackhi_epi16(ab_lo, cd_lo);
            interleaved[q * 4 + 2] = _mm256_unpacklo_epi16(ab_hi, cd_hi);
            interleaved[q * 4 + 3] = _mm256_unpackhi_epi16(ab_hi, cd_hi);
        }
        __m256i left[8], right[8];  /* row r's columns 0-7 | 16-23 and 8-15 | 24-31 */
        for (int r = 0; r < 8; r++) {
            const __m256i *s = interleaved + first_quad[r] * 4;
            const int32_t *h = his + r * row_quads_most, *l = los + r * row_quads_most;
            __m256i h0 = _mm256_setzero_si256(), h1 = h0, h2 = h0, h3 = h0, l0 = start, l1 = start, l2 = start, l3 = start;
            for (int j = 0; j < count[r]; j++) {
                const __m256i wh = _mm256_set1_epi32(h[j]), wl = _mm256_set1_epi32(l[j]);
                const __m256i s0 = s[j * 4], s1 = s[j * 4 + 1], s2 = s[j * 4 + 2], s3 = s[j * 4 + 3];
                h0 = _mm256_dpbusd_epi32(h0, s0, wh); l0 = _mm256_dpbusd_epi32(l0, s0, wl);
                h1 = _mm256_dpbusd_epi32(h1, s1, wh); l1 = _mm256_dpbusd_epi32(l1, s1, wl);
                h2 = _mm256_dpbusd_epi32(h2, s2, wh); l2 = _mm256_dpbusd_epi32(l2, s2, wl);
                h3 = _mm256_dpbusd_epi32(h3, s3, wh); l3 = _mm256_dpbusd_epi32(l3, s3, wl);
            }
            h0 = _mm256_add_epi32(_mm256_slli_epi32(h0, 8), l0);
            h1 = _mm256_add_epi32(_mm256_slli_epi32(h1, 8), l1);
            h2 = _mm256_add_epi32(_mm256_slli_epi32(h2, 8), l2);
            h3 = _mm256_add_epi32(_mm256_slli_epi32(h3, 8), l3);
            left[r] = GG_V8_PACK(h0, h1);
            right[r] = GG_V8_PACK(h2, h3);
        }
        /* A pair of columns is 32 bits: transposed, left[j] is pair j (j < 4)
           or 4 + j (j >= 4) of rows 0-7, right[j] pair 4 + j or 8 + j. */
        transpose8_avx2(left);
        transpose8_avx2(right);
        __m256i *o = (__m256i *)(void *)(out + (size_t)(x0 / 2) * 16);
        for (int j = 0; j < 4; j++) {
            _mm256_storeu_si256(o + j, left[j]);
            _mm256_storeu_si256(o + 4 + j, right[j]);
            _mm256_storeu_si256(o + 8 + j, left[4 + j]);
            _mm256_storeu_si256(o + 12 + j, right[4 + j]);
        }
    }
    vertical8_avx2(window, window_rows, first, weights, pairs, bias, scratch, out, x0, width);
}

/* The horizontal pass: eight output samples in flight, each a chain of
   multiply-add-pairs over eight rows (one vector: pair j of each row) and
   adds; the eight samples' weight pairs of one step come in two loads and
   are spread by shuffles. */
__attribute__((target("avx2,fma")))
static void horizontal8_avx2(const int16_t *in, const int32_t *starts, const int32_t *weights, int pairs,
                             uint8_t *out, long out_stride, int rows, int width) {
    const __m256i round = _mm256_set1_epi32(GG_RESAMPLE_HORIZONTAL_ROUND);
    int groups = width / 8;
    for (int g = 0; g < groups; g++) {
        const int32_t *st = starts + g * 8;
        const int32_t *w = weights + (size_t)g * pairs * 8;
        const __m256i *s0 = (const __m256i *)(const void *)(in + (size_t)st[0] * 16), *s1 = (const __m256i *)(const void *)(in + (size_t)st[1] * 16);
        const __m256i *s2 = (const __m256i *)(const void *)(in + (size_t)st[2] * 16), *s3 = (const __m256i *)(const void *)(in + (size_t)st[3] * 16);
        const __m256i *s4 = (const __m256i *)(const void *)(in + (size_t)st[4] * 16), *s5 = (const __m256i *)(const void *)(in + (size_t)st[5] * 16);
        const __m256i *s6 = (const __m256i *)(const void *)(in + (size_t)st[6] * 16), *s7 = (const __m256i *)(const void *)(in + (size_t)st[7] * 16);
        __m256i a[8];
        for (int i = 0; i < 8; i++) a[i] = round;
        for (int j = 0; j < pairs; j++) {
            const __m256i lo = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(w + j * 8)));
            const __m256i hi = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(w + j * 8 + 4)));
            a[0] = _mm256_add_epi32(a[0], _mm256_madd_epi16(_mm256_loadu_si256(s0 + j), GG_LANE(lo, 0)));
            a[1] = _mm256_add_epi32(a[1], _mm256_madd_epi16(_mm256_loadu_si256(s1 + j), GG_LANE(lo, 1)));
            a[2] = _mm256_add_epi32(a[2], _mm256_madd_epi16(_mm256_loadu_si256(s2 + j), GG_LANE(lo, 2)));
            a[3] = _mm256_add_epi32(a[3], _mm256_madd_epi16(_mm256_loadu_si256(s3 + j), GG_LANE(lo, 3)));
            a[4] = _mm256_add_epi32(a[4], _mm256_madd_epi16(_mm256_loadu_si256(s4 + j), GG_LANE(hi, 0)));
            a[5] = _mm256_add_epi32(a[5], _mm256_madd_epi16(_mm256_loadu_si256(s5 + j), GG_LANE(hi, 1)));
            a[6] = _mm256_add_epi32(a[6], _mm256_madd_epi16(_mm256_loadu_si256(s6 + j), GG_LANE(hi, 2)));
            a[7] = _mm256_add_epi32(a[7], _mm256_madd_epi16(_mm256_loadu_si256(s7 + j), GG_LANE(hi, 3)));
        }
        /* a[i] is sample i of every row; transposed, a[r] is row r's eight samples. */
        transpose8_avx2(a);
        uint8_t *o = out + g * 8;
        for (int r = 0; r + 2 <= rows; r += 2) {
            __m256i i16 = _mm256_packs_epi32(_mm256_srai_epi32(a[r], GG_RESAMPLE_HORIZONTAL_SHIFT),
                                             _mm256_srai_epi32(a[r + 1], GG_RESAMPLE_HORIZONTAL_SHIFT));
            /* packs works within 128-bit halves: row r is in the low 64 bits of each half. */
            __m128i lo = _mm256_castsi256_si128(i16), hi = _mm256_extracti128_si256(i16, 1);
            __m128i u8 = _mm_packus_epi16(_mm_unpacklo_epi64(lo, hi), _mm_unpackhi_epi64(lo, hi));
            _mm_storel_epi64((__m128i *)(o + r * out_stride), u8);
            _mm_storel_epi64((__m128i *)(o + (r + 1) * out_stride), _mm_unpackhi_epi64(u8, u8));
        }
        if (rows & 1) {
            __m256i i16 = _mm256_packs_epi32(_mm256_srai_epi32(a[rows - 1], GG_RESAMPLE_HORIZONTAL_SHIFT), _mm256_setzero_si256());
            __m128i u8 = _mm_packus_epi16(_mm_unpacklo_epi64(_mm256_castsi256_si128(i16), _mm256_extracti128_si256(i16, 1)),
                                          _mm_setzero_si128());
            _mm_storel_epi64((__m128i *)(o + (rows - 1) * out_stride), u8);
        }
    }
    horizontal8_portable(in, starts, weights, pairs, out, out_stride, rows, groups * 8, width);
}
#endif

/* ---- Dispatch ---- */

void gg_resample_load_rgba(int which, const uint8_t *row, int channels, int premultiply, float *out, int width) {
    switch (kernel(which)) {
#if GG_X86
    case 4:
    case 3: load_rgba_avx2(row, channels, premultiply, out, width); return;
#endif
    default: load_rgba_portable(row, channels, premultiply, out, 0, width);
    }
}

void gg_resample_store_rgba(int which, const float *pixels, int premultiplied, uint8_t *out, int width) {
    switch (kernel(which)) {
#if GG_X86
    case 4:
    case 3: store_rgba_avx2(pixels, premultiplied, out, width); return;
#endif
    default: store_rgba_portable(pixels, premultiplied, out, 0, width);
    }
}

void gg_resample_horizontal_rgba(int which, const float *row, const int32_t *starts, const float *weights, int taps,
                                 float *out, int width) {
    switch (kernel(which)) {
#if GG_X86
    case 4:
    case 3: horizontal_rgba_avx2(row, starts, weights, taps, out, width); return;
    case 1: horizontal_rgba_sse2(row, starts, weights, taps, out, width); return;
#endif
    default: horizontal_rgba_portable(row, starts, weights, taps, out, 0, width);
    }
}

void gg_resample_vertical8(int which, const uint8_t *const *window, int window_rows, const int32_t *first,
                           const int16_t *weights, int pairs, int32_t bias, int16_t *scratch, int16_t *out, int width) {
    switch (kernel(which)) {
#if GG_X86
    case 4: vertical8_vnni(window, window_rows, first, weights, pairs, bias, scratch, out, width); return;
    case 3: vertical8_avx2(window, window_rows, first, weights, pairs, bias, scratch, out, 0, width); return;
    case 1: vertical8_sse2(window, window_rows, first, weights, pairs, bias, scratch, out, width); return;
#endif
    default: (void)window_rows; (void)scratch; vertical8_portable(window, first, weights, pairs, bias, out, 0, width);
    }
}

void gg_resample_vertical(int which, const float *const *rows, const float *weights, int taps, float *out, int width) {
    switch (kernel(which)) {
#if GG_X86
    case 4:
    case 3: vertical_avx2(rows, weights, taps, out, width); return;
    case 1: vertical_sse2(rows, weights, taps, out, width); return;
#endif
    default: vertical_portable(rows, weights, taps, out, 0, width);
    }
}

void gg_resample_horizontal8(int which, const int16_t *in, const int32_t *starts, const int32_t *weights, int pairs,
                             uint8_t *out, long out_stride, int rows, int width) {
    switch (kernel(which)) {
#if GG_X86
    case 4:
    case 3: horizontal8_avx2(in, starts, weights, pairs, out, out_stride, rows, width); return;
    case 1: horizontal8_sse2(in, starts, weights, pairs, out, out_stride, rows, width); return;
#endif
    default: horizontal8_portable(in, starts, weights, pairs, out, out_stride, rows, 0, width);
    }
}

/* ---- Turning a plane upright ---- */

/* Eight bytes from p (the next eight samples at step +1) or, with step -1,
   the eight ending at p, reversed: either way in the order the walk meets them. */
static inline uint64_t eight_along(const uint8_t *p, long step) {
    uint64_t v;
    if (step > 0) {
        memcpy(&v, p, 8);
        return v;
    }
    memcpy(&v, p - 7, 8);
    return __builtin_bswap64(v);
}

void gg_resample_turn(const uint8_t *source, long origin, long step_x, long step_y, uint8_t *out, int width, int height) {
    const uint8_t *base = source + origin;
    int y0 = 0;
    if (step_y == 1 || step_y == -1) {
        /* A turn by a quarter: output column x is a stored row. Blocks of
           8 x 8: eight output columns' eight samples each (contiguous in the
           stored plane), transposed. */
        for (; y0 + 8 <= height; y0 += 8) {
            int x0 = 0;
            for (; x0 + 8 <= width; x0 += 8) {
                uint64_t column[8];
                for (int i = 0; i < 8; i++) column[i] = eight_along(base + (long)(x0 + i) * step_x + (long)y0 * step_y, step_y);
#if GG_X86
                __m128i r[8];
                for (int i = 0; i < 8; i++) r[i] = _mm_cvtsi64_si128((long long)column[i]);
                __m128i t0 = _mm_unpacklo_epi8(r[0], r[1]), t1 = _mm_unpacklo_epi8(r[2], r[3]);
                __m128i t2 = _mm_unpacklo_epi8(r[4], r[5]), t3 = _mm_unpacklo_epi8(r[6], r[7]);
                __m128i u0 = _mm_unpacklo_epi16(t0, t1), u1 = _mm_unpackhi_epi16(t0, t1);
                __m128i u2 = _mm_unpacklo_epi16(t2, t3), u3 = _mm_unpackhi_epi16(t2, t3);
                __m128i rows[4] = {_mm_unpacklo_epi32(u0, u2), _mm_unpackhi_epi32(u0, u2), _mm_unpacklo_epi32(u1, u3),
                                   _mm_unpackhi_epi32(u1, u3)};
                for (int k = 0; k < 4; k++) {
                    _mm_storel_epi64((__m128i *)(out + (size_t)(y0 + 2 * k) * width + x0), rows[k]);
                    _mm_storel_epi64((__m128i *)(out + (size_t)(y0 + 2 * k + 1) * width + x0), _mm_unpackhi_epi64(rows[k], rows[k]));
                }
#else
                for (int k = 0; k < 8; k++)
                    for (int i = 0; i < 8; i++) out[(size_t)(y0 + k) * width + x0 + i] = (uint8_t)(column[i] >> (8 * k));
#endif
            }
            for (; x0 < width; x0++)
                for (int k = 0; k < 8; k++) out[(size_t)(y0 + k) * width + x0] = base[(long)x0 * step_x + (long)(y0 + k) * step_y];
        }
    }
    /* Whole rows (a mirror or a half turn: output rows are stored rows) and
       the rows a quarter turn's blocks left. */
    for (int y = y0; y < height; y++) {
        const uint8_t *p = base + (long)y * step_y;
        uint8_t *row = out + (size_t)y * width;
        int x = 0;
        if (step_x == 1) {
            memcpy(row, p, (size_t)width);
            continue;
        }
        if (step_x == -1)
            for (; x + 8 <= width; x += 8) {
                uint64_t v = eight_along(p - x, -1);
                memcpy(row + x, &v, 8);
            }
        for (; x < width; x++) row[x] = p[(long)x * step_x];
    }
}
