#include "gg_resample.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#define GG_X86 1
#include <immintrin.h>
#endif

/* Columns the eight-row vertical pass converts and filters at a time: the
   window's rows of one strip stay in the first-level cache. */
#define GG_STRIP GG_RESAMPLE_STRIP

/* 0: not chosen yet, 1: SSE2, 2: portable, 3: AVX2+FMA. Read on every call
   (a switch costs nothing next to a row of work), written once; the race of
   two first calls is harmless, both write the same value. */
static int chosen_kernel = 0;

static int best_kernel(void) {
#if GG_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return 3;
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
    case 3: return "avx2+fma";
    case 1: return "sse2";
    default: return "portable";
    }
}

int gg_resample_has(int which) {
#if GG_X86
    return which == 1 || which == 2 || (which == 3 && best_kernel() == 3);
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

/* Columns from `from` on of the eight-row vertical pass (see the header). */
static void vertical8_portable(const uint8_t *const *window, const int32_t *first, const float *weights, int taps,
                               float offset, float *restrict out, int from, int width) {
    for (int x = from; x < width; x++)
        for (int r = 0; r < 8; r++) {
            const float *w = weights + r * taps;
            float sum = offset;
            for (int k = 0; k < taps; k++) sum += w[k] * (float)window[first[r] + k][x];
            out[(size_t)x * 8 + r] = sum;
        }
}

/* Groups of eight output samples from `group` on (see the header for the
   layout of `starts` and `weights`). */
static void horizontal8_portable(const float *in, const int32_t *starts, const float *weights, int taps,
                                 uint8_t *out, long out_stride, int rows, int group, int width) {
    for (int x0 = group * 8; x0 < width; x0 += 8) {
        const float *w = weights + (size_t)(x0 / 8) * taps * 8;
        for (int j = 0; j < 8 && x0 + j < width; j++) {
            const float *s = in + (size_t)starts[x0 + j] * 8;
            float sum[8] = {0, 0, 0, 0, 0, 0, 0, 0};
            for (int k = 0; k < taps; k++)
                for (int r = 0; r < 8; r++) sum[r] += w[k * 8 + j] * s[k * 8 + r];
            for (int r = 0; r < rows; r++) out[r * out_stride + x0 + j] = to_byte(sum[r]);
        }
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

/* Converts columns x0 ..< x0 + STRIP of every window row to float, once
   for the eight output rows that read them. */
static void strip_sse2(const uint8_t *const *window, int window_rows, int x0, float *scratch) {
    const __m128i zero = _mm_setzero_si128();
    for (int i = 0; i < window_rows; i++) {
        float *s = scratch + i * GG_STRIP;
        for (int c = 0; c < GG_STRIP; c += 16) {
            __m128i bytes = _mm_loadu_si128((const __m128i *)(window[i] + x0 + c));
            __m128i lo = _mm_unpacklo_epi8(bytes, zero), hi = _mm_unpackhi_epi8(bytes, zero);
            _mm_storeu_ps(s + c, _mm_cvtepi32_ps(_mm_unpacklo_epi16(lo, zero)));
            _mm_storeu_ps(s + c + 4, _mm_cvtepi32_ps(_mm_unpackhi_epi16(lo, zero)));
            _mm_storeu_ps(s + c + 8, _mm_cvtepi32_ps(_mm_unpacklo_epi16(hi, zero)));
            _mm_storeu_ps(s + c + 12, _mm_cvtepi32_ps(_mm_unpackhi_epi16(hi, zero)));
        }
    }
}

static void vertical8_sse2(const uint8_t *const *window, int window_rows, const int32_t *first, const float *weights, int taps,
                           float offset, float *scratch, float *out, int width) {
    float rows[8][GG_STRIP];
    int x0 = 0;
    for (; x0 + GG_STRIP <= width; x0 += GG_STRIP) {
        strip_sse2(window, window_rows, x0, scratch);
        for (int r = 0; r < 8; r++) {
            const float *s = scratch + first[r] * GG_STRIP, *w = weights + r * taps;
            for (int c = 0; c < GG_STRIP; c += 16) {
                __m128 a0 = _mm_set1_ps(offset), a1 = a0, a2 = a0, a3 = a0;
                for (int k = 0; k < taps; k++) {
                    const __m128 wk = _mm_set1_ps(w[k]);
                    const float *p = s + k * GG_STRIP + c;
                    a0 = _mm_add_ps(a0, _mm_mul_ps(wk, _mm_loadu_ps(p)));
                    a1 = _mm_add_ps(a1, _mm_mul_ps(wk, _mm_loadu_ps(p + 4)));
                    a2 = _mm_add_ps(a2, _mm_mul_ps(wk, _mm_loadu_ps(p + 8)));
                    a3 = _mm_add_ps(a3, _mm_mul_ps(wk, _mm_loadu_ps(p + 12)));
                }
                _mm_storeu_ps(rows[r] + c, a0);
                _mm_storeu_ps(rows[r] + c + 4, a1);
                _mm_storeu_ps(rows[r] + c + 8, a2);
                _mm_storeu_ps(rows[r] + c + 12, a3);
            }
        }
        /* Interleave: sample x of rows 0-3, then of rows 4-7. */
        for (int c = 0; c < GG_STRIP; c += 4)
            for (int half = 0; half < 2; half++) {
                __m128 r0 = _mm_loadu_ps(rows[half * 4] + c), r1 = _mm_loadu_ps(rows[half * 4 + 1] + c);
                __m128 r2 = _mm_loadu_ps(rows[half * 4 + 2] + c), r3 = _mm_loadu_ps(rows[half * 4 + 3] + c);
                _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
                float *o = out + (size_t)(x0 + c) * 8 + half * 4;
                _mm_storeu_ps(o, r0);
                _mm_storeu_ps(o + 8, r1);
                _mm_storeu_ps(o + 16, r2);
                _mm_storeu_ps(o + 24, r3);
            }
    }
    vertical8_portable(window, first, weights, taps, offset, out, x0, width);
}

/* Four samples of four rows as bytes into four rows. */
static inline void store4x4_sse2(__m128 r0, __m128 r1, __m128 r2, __m128 r3, uint8_t *out, long out_stride, int rows) {
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    __m128i i01 = _mm_packs_epi32(_mm_cvtps_epi32(r0), _mm_cvtps_epi32(r1));
    __m128i i23 = _mm_packs_epi32(_mm_cvtps_epi32(r2), _mm_cvtps_epi32(r3));
    __m128i u8 = _mm_packus_epi16(i01, i23);
    int32_t four[4];
    _mm_storeu_si128((__m128i *)four, u8);
    for (int r = 0; r < rows && r < 4; r++) memcpy(out + r * out_stride, &four[r], 4);
}

static void horizontal8_sse2(const float *in, const int32_t *starts, const float *weights, int taps,
                             uint8_t *out, long out_stride, int rows, int width) {
    int groups = width / 8;
    for (int g = 0; g < groups; g++) {
        const float *w = weights + (size_t)g * taps * 8;
        /* Four output samples at a time: eight sums (each four rows) in flight. */
        for (int j0 = 0; j0 < 8; j0 += 4) {
            int x = g * 8 + j0;
            const float *s0 = in + (size_t)starts[x] * 8, *s1 = in + (size_t)starts[x + 1] * 8;
            const float *s2 = in + (size_t)starts[x + 2] * 8, *s3 = in + (size_t)starts[x + 3] * 8;
            __m128 l0 = _mm_setzero_ps(), l1 = l0, l2 = l0, l3 = l0, h0 = l0, h1 = l0, h2 = l0, h3 = l0;
            for (int k = 0; k < taps; k++) {
                const float *wk = w + k * 8 + j0;
                __m128 w0 = _mm_set1_ps(wk[0]), w1 = _mm_set1_ps(wk[1]), w2 = _mm_set1_ps(wk[2]), w3 = _mm_set1_ps(wk[3]);
                l0 = _mm_add_ps(l0, _mm_mul_ps(w0, _mm_loadu_ps(s0 + k * 8)));
                h0 = _mm_add_ps(h0, _mm_mul_ps(w0, _mm_loadu_ps(s0 + k * 8 + 4)));
                l1 = _mm_add_ps(l1, _mm_mul_ps(w1, _mm_loadu_ps(s1 + k * 8)));
                h1 = _mm_add_ps(h1, _mm_mul_ps(w1, _mm_loadu_ps(s1 + k * 8 + 4)));
                l2 = _mm_add_ps(l2, _mm_mul_ps(w2, _mm_loadu_ps(s2 + k * 8)));
                h2 = _mm_add_ps(h2, _mm_mul_ps(w2, _mm_loadu_ps(s2 + k * 8 + 4)));
                l3 = _mm_add_ps(l3, _mm_mul_ps(w3, _mm_loadu_ps(s3 + k * 8)));
                h3 = _mm_add_ps(h3, _mm_mul_ps(w3, _mm_loadu_ps(s3 + k * 8 + 4)));
            }
            store4x4_sse2(l0, l1, l2, l3, out + x, out_stride, rows);
            if (rows > 4) store4x4_sse2(h0, h1, h2, h3, out + 4 * out_stride + x, out_stride, rows - 4);
        }
    }
    horizontal8_portable(in, starts, weights, taps, out, out_stride, rows, groups, width);
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

/* Rows of eight floats become columns: on return r[i] holds element i of
   every input row. */
__attribute__((target("avx2,fma")))
static inline void transpose8_avx2(__m256 r[8]) {
    __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    __m256 s0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)), s1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    __m256 s2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)), s3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    __m256 s4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0)), s5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
    __m256 s6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0)), s7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
    r[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
    r[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
    r[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
    r[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
    r[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
    r[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
    r[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
    r[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}

__attribute__((target("avx2,fma")))
static void vertical8_avx2(const uint8_t *const *window, int window_rows, const int32_t *first, const float *weights, int taps,
                           float offset, float *scratch, float *out, int width) {
    float rows[8][GG_STRIP];
    int x0 = 0;
    for (; x0 + GG_STRIP <= width; x0 += GG_STRIP) {
        /* Each window row's strip to float once (a row is read by several
           of the eight outputs: with a 2.5x reduction, about six). */
        for (int i = 0; i < window_rows; i++) {
            __m256i bytes = _mm256_loadu_si256((const __m256i *)(window[i] + x0));
            __m128i lo = _mm256_castsi256_si128(bytes), hi = _mm256_extracti128_si256(bytes, 1);
            float *s = scratch + i * GG_STRIP;
            _mm256_storeu_ps(s, _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(lo)));
            _mm256_storeu_ps(s + 8, _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(lo, 8))));
            _mm256_storeu_ps(s + 16, _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(hi)));
            _mm256_storeu_ps(s + 24, _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(hi, 8))));
        }
        /* Two output rows at a time: eight accumulators, one broadcast
           weight per four multiply-adds. */
        for (int r = 0; r < 8; r += 2) {
            const float *s0 = scratch + first[r] * GG_STRIP, *s1 = scratch + first[r + 1] * GG_STRIP;
            const float *w0 = weights + r * taps, *w1 = weights + (r + 1) * taps;
            __m256 a0 = _mm256_set1_ps(offset), a1 = a0, a2 = a0, a3 = a0, b0 = a0, b1 = a0, b2 = a0, b3 = a0;
            for (int k = 0; k < taps; k++) {
                const __m256 u = _mm256_broadcast_ss(w0 + k), v = _mm256_broadcast_ss(w1 + k);
                const float *p = s0 + k * GG_STRIP, *q = s1 + k * GG_STRIP;
                a0 = _mm256_fmadd_ps(u, _mm256_loadu_ps(p), a0);
                a1 = _mm256_fmadd_ps(u, _mm256_loadu_ps(p + 8), a1);
                a2 = _mm256_fmadd_ps(u, _mm256_loadu_ps(p + 16), a2);
                a3 = _mm256_fmadd_ps(u, _mm256_loadu_ps(p + 24), a3);
                b0 = _mm256_fmadd_ps(v, _mm256_loadu_ps(q), b0);
                b1 = _mm256_fmadd_ps(v, _mm256_loadu_ps(q + 8), b1);
                b2 = _mm256_fmadd_ps(v, _mm256_loadu_ps(q + 16), b2);
                b3 = _mm256_fmadd_ps(v, _mm256_loadu_ps(q + 24), b3);
            }
            _mm256_storeu_ps(rows[r], a0);
            _mm256_storeu_ps(rows[r] + 8, a1);
            _mm256_storeu_ps(rows[r] + 16, a2);
            _mm256_storeu_ps(rows[r] + 24, a3);
            _mm256_storeu_ps(rows[r + 1], b0);
            _mm256_storeu_ps(rows[r + 1] + 8, b1);
            _mm256_storeu_ps(rows[r + 1] + 16, b2);
            _mm256_storeu_ps(rows[r + 1] + 24, b3);
        }
        /* Eight columns of the eight rows at a time, transposed: sample x of
           every row side by side. */
        for (int c = 0; c < GG_STRIP; c += 8) {
            __m256 m[8];
            for (int r = 0; r < 8; r++) m[r] = _mm256_loadu_ps(rows[r] + c);
            transpose8_avx2(m);
            float *o = out + (size_t)(x0 + c) * 8;
            for (int j = 0; j < 8; j++) _mm256_storeu_ps(o + j * 8, m[j]);
        }
    }
    vertical8_portable(window, first, weights, taps, offset, out, x0, width);
}

__attribute__((target("avx2,fma")))
static void horizontal8_avx2(const float *in, const int32_t *starts, const float *weights, int taps,
                             uint8_t *out, long out_stride, int rows, int width) {
    int groups = width / 8;
    for (int g = 0; g < groups; g++) {
        const int32_t *st = starts + g * 8;
        const float *w = weights + (size_t)g * taps * 8;
        const float *s0 = in + (size_t)st[0] * 8, *s1 = in + (size_t)st[1] * 8, *s2 = in + (size_t)st[2] * 8;
        const float *s3 = in + (size_t)st[3] * 8, *s4 = in + (size_t)st[4] * 8, *s5 = in + (size_t)st[5] * 8;
        const float *s6 = in + (size_t)st[6] * 8, *s7 = in + (size_t)st[7] * 8;
        /* Eight output samples, each eight rows: eight independent chains of
           multiply-adds, one broadcast weight and one load each. */
        __m256 a[8];
        for (int j = 0; j < 8; j++) a[j] = _mm256_setzero_ps();
        for (int k = 0; k < taps; k++) {
            const float *wk = w + k * 8;
            const int o = k * 8;
            a[0] = _mm256_fmadd_ps(_mm256_broadcast_ss(wk), _mm256_loadu_ps(s0 + o), a[0]);
            a[1] = _mm256_fmadd_ps(_mm256_broadcast_ss(wk + 1), _mm256_loadu_ps(s1 + o), a[1]);
            a[2] = _mm256_fmadd_ps(_mm256_broadcast_ss(wk + 2), _mm256_loadu_ps(s2 + o), a[2]);
            a[3] = _mm256_fmadd_ps(_mm256_broadcast_ss(wk + 3), _mm256_loadu_ps(s3 + o), a[3]);
            a[4] = _mm256_fmadd_ps(_mm256_broadcast_ss(wk + 4), _mm256_loadu_ps(s4 + o), a[4]);
            a[5] = _mm256_fmadd_ps(_mm256_broadcast_ss(wk + 5), _mm256_loadu_ps(s5 + o), a[5]);
            a[6] = _mm256_fmadd_ps(_mm256_broadcast_ss(wk + 6), _mm256_loadu_ps(s6 + o), a[6]);
            a[7] = _mm256_fmadd_ps(_mm256_broadcast_ss(wk + 7), _mm256_loadu_ps(s7 + o), a[7]);
        }
        /* a[j] is sample j of every row; transposed, a[r] is row r's eight samples. */
        transpose8_avx2(a);
        uint8_t *o = out + g * 8;
        for (int r = 0; r + 2 <= rows; r += 2) {
            __m256i i32 = _mm256_packs_epi32(_mm256_cvtps_epi32(a[r]), _mm256_cvtps_epi32(a[r + 1]));
            /* packs works within 128-bit halves: row r is in the low 64 bits of each half. */
            __m128i i16r = _mm_unpacklo_epi64(_mm256_castsi256_si128(i32), _mm256_extracti128_si256(i32, 1));
            __m128i i16s = _mm_unpackhi_epi64(_mm256_castsi256_si128(i32), _mm256_extracti128_si256(i32, 1));
            __m128i u8 = _mm_packus_epi16(i16r, i16s);
            _mm_storel_epi64((__m128i *)(o + r * out_stride), u8);
            _mm_storel_epi64((__m128i *)(o + (r + 1) * out_stride), _mm_unpackhi_epi64(u8, u8));
        }
        if (rows & 1) {
            __m128i i32lo = _mm256_castsi256_si128(_mm256_cvtps_epi32(a[rows - 1]));
            __m128i i32hi = _mm256_extracti128_si256(_mm256_cvtps_epi32(a[rows - 1]), 1);
            __m128i u8 = _mm_packus_epi16(_mm_packs_epi32(i32lo, i32hi), _mm_setzero_si128());
            _mm_storel_epi64((__m128i *)(o + (rows - 1) * out_stride), u8);
        }
    }
    horizontal8_portable(in, starts, weights, taps, out, out_stride, rows, groups, width);
}
#endif

/* ---- Dispatch ---- */

void gg_resample_load_rgba(int which, const uint8_t *row, int channels, int premultiply, float *out, int width) {
    switch (kernel(which)) {
#if GG_X86
    case 3: load_rgba_avx2(row, channels, premultiply, out, width); return;
#endif
    default: load_rgba_portable(row, channels, premultiply, out, 0, width);
    }
}

void gg_resample_store_rgba(int which, const float *pixels, int premultiplied, uint8_t *out, int width) {
    switch (kernel(which)) {
#if GG_X86
    case 3: store_rgba_avx2(pixels, premultiplied, out, width); return;
#endif
    default: store_rgba_portable(pixels, premultiplied, out, 0, width);
    }
}

void gg_resample_horizontal_rgba(int which, const float *row, const int32_t *starts, const float *weights, int taps,
                                 float *out, int width) {
    switch (kernel(which)) {
#if GG_X86
    case 3: horizontal_rgba_avx2(row, starts, weights, taps, out, width); return;
    case 1: horizontal_rgba_sse2(row, starts, weights, taps, out, width); return;
#endif
    default: horizontal_rgba_portable(row, starts, weights, taps, out, 0, width);
    }
}

void gg_resample_vertical8(int which, const uint8_t *const *window, int window_rows, const int32_t *first,
                           const float *weights, int taps, float offset, float *scratch, float *out, int width) {
    switch (kernel(which)) {
#if GG_X86
    case 3: vertical8_avx2(window, window_rows, first, weights, taps, offset, scratch, out, width); return;
    case 1: vertical8_sse2(window, window_rows, first, weights, taps, offset, scratch, out, width); return;
#endif
    default: (void)window_rows; (void)scratch; vertical8_portable(window, first, weights, taps, offset, out, 0, width);
    }
}

void gg_resample_vertical(int which, const float *const *rows, const float *weights, int taps, float *out, int width) {
    switch (kernel(which)) {
#if GG_X86
    case 3: vertical_avx2(rows, weights, taps, out, width); return;
    case 1: vertical_sse2(rows, weights, taps, out, width); return;
#endif
    default: vertical_portable(rows, weights, taps, out, 0, width);
    }
}

void gg_resample_horizontal8(int which, const float *in, const int32_t *starts, const float *weights, int taps,
                             uint8_t *out, long out_stride, int rows, int width) {
    switch (kernel(which)) {
#if GG_X86
    case 3: horizontal8_avx2(in, starts, weights, taps, out, out_stride, rows, width); return;
    case 1: horizontal8_sse2(in, starts, weights, taps, out, out_stride, rows, width); return;
#endif
    default: horizontal8_portable(in, starts, weights, taps, out, out_stride, rows, 0, width);
    }
}
