/*
 * The only C in gallerygen's JPEG path: libjpeg reports fatal errors by calling
 * error_exit(), whose default is exit(). Swift cannot call setjmp, so these few
 * functions own the setjmp/longjmp error manager and turn every libjpeg failure
 * into a return code plus a message that the Swift side throws.
 */
#ifndef GG_JPEG_H
#define GG_JPEG_H

#include <stddef.h>
#include <stdint.h>

#define GG_JPEG_MESSAGE_MAX 200

/** How bad the worst libjpeg warning of a decode was. */
typedef enum {
    GG_JPEG_WARN_NONE = 0,
    /** Harmless oddities (extraneous bytes before a marker, unknown APPn). */
    GG_JPEG_WARN_BENIGN = 1,
    /** Image data is missing or corrupt: rows would come out grey or smeared. */
    GG_JPEG_WARN_DAMAGED = 2
} gg_jpeg_warning;

/** Result of a JPEG operation: 0 on success, -1 on failure with message set. */
typedef struct {
    int status;
    gg_jpeg_warning warning;
    char message[GG_JPEG_MESSAGE_MAX];
} gg_jpeg_result;

/**
 * Reads the header only. Reports the stored size and the output size at
 * 1/scale_denom (1, 2, 4 or 8) as libjpeg computes it (rounding up).
 */
gg_jpeg_result gg_jpeg_read_size(const uint8_t *data, size_t length, int scale_denom,
                                 int *width, int *height, int *scaled_width, int *scaled_height);

/**
 * Decodes at 1/scale_denom into caller-owned RGBA memory (alpha = 255) of
 * out_width x out_height pixels and `stride` bytes per row. CMYK/YCCK is
 * converted to RGB. When icc is non-NULL the embedded ICC profile (if any) is
 * returned in malloc'd memory the caller frees with gg_jpeg_free.
 */
gg_jpeg_result gg_jpeg_decode_rgba(const uint8_t *data, size_t length, int scale_denom,
                                   uint8_t *pixels, size_t stride, int out_width, int out_height,
                                   uint8_t **icc, unsigned int *icc_length);

/**
 * Encodes RGBA pixels (alpha ignored) as baseline or progressive JPEG with
 * optimised Huffman tables, embedding the ICC profile when given. The output
 * is malloc'd; free it with gg_jpeg_free.
 */
gg_jpeg_result gg_jpeg_encode_rgba(const uint8_t *pixels, int width, int height, size_t stride,
                                   int quality, int progressive,
                                   const uint8_t *icc, unsigned int icc_length,
                                   uint8_t **output, size_t *output_length);

/**
 * A streaming decoder that hands out the JPEG's own planes (Y, Cb, Cr at their
 * stored resolution, or Y alone for greyscale) one strip of rows at a time:
 * no chroma upsampling, no colour conversion and no full-size buffer, because
 * the resampler shrinks each plane as its rows arrive.
 */
typedef struct gg_jpeg_planar gg_jpeg_planar;

/** The planes a planar decoder produces. */
typedef struct {
    /** 1 (greyscale: Y) or 3 (Y, Cb, Cr, full range as JPEG stores them). */
    int components;
    /** Image size at the chosen scale. */
    int output_width, output_height;
    /** Each plane's size in samples. */
    int plane_width[3], plane_height[3];
} gg_jpeg_planar_info;

/**
 * Reads the header and starts decoding at 1/scale_denom. When the image is
 * not YCbCr or greyscale (CMYK, stored RGB) it returns success with *decoder
 * NULL, and the caller uses gg_jpeg_decode_rgba. The ICC profile, when icc is
 * non-NULL, is returned as by gg_jpeg_decode_rgba. A non-NULL *decoder must be
 * closed with gg_jpeg_planar_close, also after an error.
 */
gg_jpeg_result gg_jpeg_planar_open(const uint8_t *data, size_t length, int scale_denom,
                                   gg_jpeg_planar **decoder, gg_jpeg_planar_info *info,
                                   uint8_t **icc, unsigned int *icc_length);

/**
 * Asks that, of each plane p, the last kept[p] rows handed out stay readable
 * (the decoder cycles through enough strips), so that a consumer can read
 * them in place instead of copying them. Call before the first read; fails
 * only for lack of memory.
 */
gg_jpeg_result gg_jpeg_planar_keep(gg_jpeg_planar *decoder, const int kept[3]);

/**
 * Decodes the next strip. For each plane p, rows[p] rows (possibly 0) start at
 * planes[p], `strides[p]` bytes apart; the memory stays valid until the next
 * call, or as gg_jpeg_planar_keep asked. *finished becomes 1 after the last strip.
 */
gg_jpeg_result gg_jpeg_planar_read(gg_jpeg_planar *decoder, const uint8_t *planes[3], size_t strides[3],
                                   int rows[3], int *finished);

/** Ends decoding; the result carries the worst warning of the whole decode. */
gg_jpeg_result gg_jpeg_planar_finish(gg_jpeg_planar *decoder);

/** Frees a planar decoder (in any state). */
void gg_jpeg_planar_close(gg_jpeg_planar *decoder);

/**
 * Encodes full-range Y, Cb, Cr planes (4:2:0: chroma planes are
 * ceil(width/2) x ceil(height/2)) as baseline JPEG with optimised Huffman
 * tables, without any colour conversion or downsampling in libjpeg.
 */
gg_jpeg_result gg_jpeg_encode_planar(const uint8_t *y, size_t y_stride, const uint8_t *cb, const uint8_t *cr,
                                     size_t c_stride, int width, int height, int quality,
                                     const uint8_t *icc, unsigned int icc_length,
                                     uint8_t **output, size_t *output_length);

/** Frees memory returned by this module. */
void gg_jpeg_free(void *pointer);

#endif
