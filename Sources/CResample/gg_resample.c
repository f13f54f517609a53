#include "gg_resample.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#define GG_X86 1
#include <immintrin.h>
#endif

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

static void load_portable(const uint8_t *restrict in, float *restrict out, int width, float scale, float offset) {
    for (int x = 0; x < width; x++) out[x] = (float)in[x] * scale + offset;
}

static void vertical_portable(const float *const *rows, const float *weights, int taps, float *restrict out, int from, int width) {
    for (int x = from; x < width; x++) {
        float sum = 0;
        for (int k = 0; k < taps; k++) sum += weights[k] * rows[k][x];
        out[x] = sum;
    }
}

static void horizontal_portable(const float *column, const int32_t *starts, const float *weights, int stride,
                                uint8_t *out, int from, int width) {
    for (int x = from; x < width; x++) {
        const float *s = column + starts[x];
        const float *w = weights + (size_t)x * stride;
        float sum = 0;
        for (int k = 0; k < stride; k++) sum += w[k] * s[k];
        out[x] = to_byte(sum);
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

static void load_sse2(const uint8_t *in, float *out, int width, float scale, float offset) {
    const __m128i zero = _mm_setzero_si128();
    const __m128 s = _mm_set1_ps(scale), o = _mm_set1_ps(offset);
    int x = 0;
    for (; x + 16 <= width; x += 16) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)(in + x));
        __m128i lo = _mm_unpacklo_epi8(bytes, zero), hi = _mm_unpackhi_epi8(bytes, zero);
        __m128i q0 = _mm_unpacklo_epi16(lo, zero), q1 = _mm_unpackhi_epi16(lo, zero);
        __m128i q2 = _mm_unpacklo_epi16(hi, zero), q3 = _mm_unpackhi_epi16(hi, zero);
        _mm_storeu_ps(out + x, _mm_add_ps(_mm_mul_ps(_mm_cvtepi32_ps(q0), s), o));
        _mm_storeu_ps(out + x + 4, _mm_add_ps(_mm_mul_ps(_mm_cvtepi32_ps(q1), s), o));
        _mm_storeu_ps(out + x + 8, _mm_add_ps(_mm_mul_ps(_mm_cvtepi32_ps(q2), s), o));
        _mm_storeu_ps(out + x + 12, _mm_add_ps(_mm_mul_ps(_mm_cvtepi32_ps(q3), s), o));
    }
    load_portable(in + x, out + x, width - x, scale, offset);
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

static inline __m128 dot_sse2(const float *s, const float *w, int stride) {
    __m128 a = _mm_mul_ps(_mm_loadu_ps(w), _mm_loadu_ps(s));
    __m128 b = _mm_setzero_ps();
    int k = 4;
    for (; k + 8 <= stride; k += 8) {
        a = _mm_add_ps(a, _mm_mul_ps(_mm_loadu_ps(w + k), _mm_loadu_ps(s + k)));
        b = _mm_add_ps(b, _mm_mul_ps(_mm_loadu_ps(w + k + 4), _mm_loadu_ps(s + k + 4)));
    }
    if (k < stride) a = _mm_add_ps(a, _mm_mul_ps(_mm_loadu_ps(w + k), _mm_loadu_ps(s + k)));
    return _mm_add_ps(a, b);
}

static void horizontal_sse2(const float *column, const int32_t *starts, const float *weights, int stride, uint8_t *out, int width) {
    int x = 0;
    for (; x + 4 <= width; x += 4) {
        __m128 r0 = dot_sse2(column + starts[x], weights + (size_t)x * stride, stride);
        __m128 r1 = dot_sse2(column + starts[x + 1], weights + (size_t)(x + 1) * stride, stride);
        __m128 r2 = dot_sse2(column + starts[x + 2], weights + (size_t)(x + 2) * stride, stride);
        __m128 r3 = dot_sse2(column + starts[x + 3], weights + (size_t)(x + 3) * stride, stride);
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        __m128 sums = _mm_add_ps(_mm_add_ps(r0, r1), _mm_add_ps(r2, r3));
        __m128i i32 = _mm_cvtps_epi32(sums);
        __m128i i16 = _mm_packs_epi32(i32, i32);
        __m128i u8 = _mm_packus_epi16(i16, i16);
        int packed = _mm_cvtsi128_si32(u8);
        memcpy(out + x, &packed, 4);
    }
    horizontal_portable(column, starts, weights, stride, out, x, width);
}

/* ---- AVX2 + FMA ---- */

__attribute__((target("avx2,fma")))
static void load_avx2(const uint8_t *in, float *out, int width, float scale, float offset) {
    const __m256 s = _mm256_set1_ps(scale), o = _mm256_set1_ps(offset);
    int x = 0;
    for (; x + 16 <= width; x += 16) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)(in + x));
        __m256 f0 = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes));
        __m256 f1 = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(bytes, 8)));
        _mm256_storeu_ps(out + x, _mm256_fmadd_ps(f0, s, o));
        _mm256_storeu_ps(out + x + 8, _mm256_fmadd_ps(f1, s, o));
    }
    load_portable(in + x, out + x, width - x, scale, offset);
}

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

__attribute__((target("avx2,fma")))
static inline __m256 dot_avx2(const float *s, const float *w, int stride) {
    /* stride is a multiple of 4: eight taps at a time, then four (in the
       low half; the high half adds zero). */
    __m256 a;
    int k;
    if (stride >= 8) {
        a = _mm256_mul_ps(_mm256_loadu_ps(w), _mm256_loadu_ps(s));
        for (k = 8; k + 8 <= stride; k += 8) a = _mm256_fmadd_ps(_mm256_loadu_ps(w + k), _mm256_loadu_ps(s + k), a);
    } else {
        a = _mm256_setzero_ps();
        k = 0;
    }
    if (k < stride) {
        __m128 tail = _mm_mul_ps(_mm_loadu_ps(w + k), _mm_loadu_ps(s + k));
        a = _mm256_add_ps(a, _mm256_zextps128_ps256(tail));
    }
    return a;
}

__attribute__((target("avx2,fma")))
static void horizontal_avx2(const float *column, const int32_t *starts, const float *weights, int stride, uint8_t *out, int width) {
    int x = 0;
    for (; x + 8 <= width; x += 8) {
        __m256 d[8];
        for (int j = 0; j < 8; j++) d[j] = dot_avx2(column + starts[x + j], weights + (size_t)(x + j) * stride, stride);
        /* Eight dot products' lanes summed into one vector of eight sums:
           two rounds of pairwise adds within each 128-bit half, then the
           halves added across. */
        __m256 h01 = _mm256_hadd_ps(d[0], d[1]), h23 = _mm256_hadd_ps(d[2], d[3]);
        __m256 h45 = _mm256_hadd_ps(d[4], d[5]), h67 = _mm256_hadd_ps(d[6], d[7]);
        __m256 h0123 = _mm256_hadd_ps(h01, h23), h4567 = _mm256_hadd_ps(h45, h67);
        __m256 sums = _mm256_add_ps(_mm256_permute2f128_ps(h0123, h4567, 0x20), _mm256_permute2f128_ps(h0123, h4567, 0x31));
        __m256i i32 = _mm256_cvtps_epi32(sums);
        __m128i i16 = _mm_packs_epi32(_mm256_castsi256_si128(i32), _mm256_extracti128_si256(i32, 1));
        __m128i u8 = _mm_packus_epi16(i16, i16);
        _mm_storel_epi64((__m128i *)(out + x), u8);
    }
    horizontal_portable(column, starts, weights, stride, out, x, width);
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

void gg_resample_load(int which, const uint8_t *samples, float *out, int width, float scale, float offset) {
    switch (kernel(which)) {
#if GG_X86
    case 3: load_avx2(samples, out, width, scale, offset); return;
    case 1: load_sse2(samples, out, width, scale, offset); return;
#endif
    default: load_portable(samples, out, width, scale, offset);
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

void gg_resample_horizontal(int which, const float *column, const int32_t *starts, const float *weights, int stride,
                            uint8_t *out, int width) {
    switch (kernel(which)) {
#if GG_X86
    case 3: horizontal_avx2(column, starts, weights, stride, out, width); return;
    case 1: horizontal_sse2(column, starts, weights, stride, out, width); return;
#endif
    default: horizontal_portable(column, starts, weights, stride, out, 0, width);
    }
}
