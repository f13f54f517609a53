#include "gg_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

/* Error manager: error_exit longjmps back instead of exit(); warnings are
   classified instead of printed to stderr. */
typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    gg_jpeg_result *result;
} gg_error_manager;

static void gg_error_exit(j_common_ptr cinfo) {
    gg_error_manager *manager = (gg_error_manager *)cinfo->err;
    char buffer[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, buffer);
    snprintf(manager->result->message, GG_JPEG_MESSAGE_MAX, "%s", buffer);
    manager->result->status = -1;
    longjmp(manager->jump, 1);
}

static int gg_is_damage(int code) {
    switch (code) {
    case JWRN_JPEG_EOF:        /* premature end of file: rows are missing */
    case JWRN_HIT_MARKER:      /* premature end of a data segment */
    case JWRN_HUFF_BAD_CODE:   /* corrupt entropy-coded data */
    case JWRN_MUST_RESYNC:     /* lost sync: a stripe is smeared */
    case JWRN_BOGUS_PROGRESSION:
        return 1;
    default:
        return 0;
    }
}

static void gg_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return; /* trace messages */
    gg_error_manager *manager = (gg_error_manager *)cinfo->err;
    gg_jpeg_warning severity = gg_is_damage(cinfo->err->msg_code) ? GG_JPEG_WARN_DAMAGED : GG_JPEG_WARN_BENIGN;
    if (severity > manager->result->warning) {
        char buffer[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, buffer);
        snprintf(manager->result->message, GG_JPEG_MESSAGE_MAX, "%s", buffer);
        manager->result->warning = severity;
    }
    cinfo->err->num_warnings++;
}

static void gg_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void gg_install(struct jpeg_error_mgr *pub) {
    jpeg_std_error(pub);
    pub->error_exit = gg_error_exit;
    pub->emit_message = gg_emit_message;
    pub->output_message = gg_output_message;
}

/* A failed result carrying `message`, for failures outside libjpeg. */
static gg_jpeg_result gg_failure(const char *message) {
    gg_jpeg_result result = {0};
    result.status = -1;
    snprintf(result.message, GG_JPEG_MESSAGE_MAX, "%s", message);
    return result;
}

static int gg_valid_denominator(int d) { return d == 1 || d == 2 || d == 4 || d == 8; }

gg_jpeg_result gg_jpeg_read_size(const uint8_t *data, size_t length, int scale_denom,
                                 int *width, int *height, int *scaled_width, int *scaled_height) {
    gg_jpeg_result result = {0};
    struct jpeg_decompress_struct cinfo;
    gg_error_manager manager;
    manager.result = &result;
    cinfo.err = &manager.pub;
    gg_install(&manager.pub);
    if (setjmp(manager.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return result;
    }
    jpeg_create_decompress(&cinfo);
    if (!gg_valid_denominator(scale_denom)) scale_denom = 1;
    jpeg_mem_src(&cinfo, data, (unsigned long)length);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned int)scale_denom;
    jpeg_calc_output_dimensions(&cinfo);
    *width = (int)cinfo.image_width;
    *height = (int)cinfo.image_height;
    *scaled_width = (int)cinfo.output_width;
    *scaled_height = (int)cinfo.output_height;
    jpeg_destroy_decompress(&cinfo);
    return result;
}

/* State that must survive a longjmp lives in a struct the function does not
   modify after setjmp, so no local needs to be volatile. */
typedef struct {
    uint8_t *row;
    uint8_t *icc;
} gg_decode_scratch;

gg_jpeg_result gg_jpeg_decode_rgba(const uint8_t *data, size_t length, int scale_denom,
                                   uint8_t *pixels, size_t stride, int out_width, int out_height,
                                   uint8_t **icc, unsigned int *icc_length) {
    gg_jpeg_result result = {0};
    struct jpeg_decompress_struct cinfo;
    gg_error_manager manager;
    gg_decode_scratch *scratch = calloc(1, sizeof(gg_decode_scratch));
    if (!scratch) return gg_failure("out of memory");
    manager.result = &result;
    cinfo.err = &manager.pub;
    gg_install(&manager.pub);
    if (setjmp(manager.jump)) {
        jpeg_destroy_decompress(&cinfo);
        free(scratch->row);
        free(scratch->icc);
        free(scratch);
        return result;
    }
    jpeg_create_decompress(&cinfo);
    if (!gg_valid_denominator(scale_denom)) scale_denom = 1;
    jpeg_mem_src(&cinfo, data, (unsigned long)length);
    if (icc) jpeg_save_markers(&cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&cinfo, TRUE);
    if (icc) {
        unsigned int len = 0;
        if (jpeg_read_icc_profile(&cinfo, &scratch->icc, &len) && len > 0) {
            *icc_length = len;
        } else {
            free(scratch->icc);
            scratch->icc = NULL;
        }
    }
    int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned int)scale_denom;
    jpeg_calc_output_dimensions(&cinfo);
    if ((int)cinfo.output_width != out_width || (int)cinfo.output_height != out_height) {
        result.status = -1;
        snprintf(result.message, GG_JPEG_MESSAGE_MAX, "output size %ux%u differs from the expected %dx%d",
                 cinfo.output_width, cinfo.output_height, out_width, out_height);
        longjmp(manager.jump, 1);
    }
    jpeg_start_decompress(&cinfo);
    if (cmyk) {
        scratch->row = malloc((size_t)cinfo.output_width * 4);
        if (!scratch->row) ERREXIT1(&cinfo, JERR_OUT_OF_MEMORY, 0);
    }
    int inverted = cinfo.saw_Adobe_marker; /* Adobe writes CMYK inverted */
    while (cinfo.output_scanline < cinfo.output_height) {
        uint8_t *target = pixels + (size_t)cinfo.output_scanline * stride;
        if (!cmyk) {
            JSAMPROW rows[1] = {target};
            jpeg_read_scanlines(&cinfo, rows, 1);
        } else {
            JSAMPROW rows[1] = {scratch->row};
            jpeg_read_scanlines(&cinfo, rows, 1);
            const uint8_t *s = scratch->row;
            for (unsigned int x = 0; x < cinfo.output_width; x++, s += 4, target += 4) {
                unsigned c = s[0], m = s[1], y = s[2], k = s[3];
                if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
                target[0] = (uint8_t)((c * k + 127) / 255);
                target[1] = (uint8_t)((m * k + 127) / 255);
                target[2] = (uint8_t)((y * k + 127) / 255);
                target[3] = 255;
            }
        }
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    if (icc && scratch->icc) {
        *icc = scratch->icc;
        scratch->icc = NULL;
    }
    free(scratch->row);
    free(scratch);
    return result;
}

/* A destination manager that grows one malloc'd buffer we own, so the error
   path always knows which pointer to free (jpeg_mem_dest's reallocations
   leave the caller's pointer stale). */
typedef struct {
    struct jpeg_destination_mgr pub;
    uint8_t *buffer;
    size_t capacity;
} gg_destination;

static void gg_init_destination(j_compress_ptr cinfo) {
    gg_destination *d = (gg_destination *)cinfo->dest;
    d->pub.next_output_byte = d->buffer;
    d->pub.free_in_buffer = d->capacity;
}

static boolean gg_empty_output_buffer(j_compress_ptr cinfo) {
    gg_destination *d = (gg_destination *)cinfo->dest;
    size_t used = d->capacity;
    size_t capacity = d->capacity * 2;
    uint8_t *grown = realloc(d->buffer, capacity);
    if (!grown) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 1);
    d->buffer = grown;
    d->capacity = capacity;
    d->pub.next_output_byte = grown + used;
    d->pub.free_in_buffer = capacity - used;
    return TRUE;
}

static void gg_term_destination(j_compress_ptr cinfo) { (void)cinfo; }

/* What one encode takes: RGBA pixels, or Y/Cb/Cr 4:2:0 planes written as raw
   data (no colour conversion or downsampling in libjpeg). */
typedef struct {
    const uint8_t *rgba;
    size_t rgba_stride;
    const uint8_t *y, *cb, *cr;
    size_t y_stride, c_stride;
    int width, height, quality, progressive;
    const uint8_t *icc;
    unsigned int icc_length;
} gg_encode_input;

/* Memory the error path must free, outside the setjmp frame's locals. */
typedef struct {
    gg_destination *destination;
    uint8_t *strip;
} gg_encode_scratch;

static void gg_encode_scratch_free(gg_encode_scratch *scratch, int keep_buffer) {
    if (scratch->destination && !keep_buffer) free(scratch->destination->buffer);
    free(scratch->destination);
    free(scratch->strip);
    free(scratch);
}

/* Copies `rows` rows (clamped to the plane) of `width` samples into a strip of
   `padded` columns, replicating the last column and row: padding that repeats
   the edge costs the fewest bits. */
static void gg_fill_strip(uint8_t *strip, size_t padded, int strip_rows, const uint8_t *plane, size_t stride,
                          int width, int height, int first_row) {
    for (int r = 0; r < strip_rows; r++) {
        int source_row = first_row + r < height ? first_row + r : height - 1;
        const uint8_t *s = plane + (size_t)source_row * stride;
        uint8_t *t = strip + (size_t)r * padded;
        memcpy(t, s, (size_t)width);
        memset(t + width, s[width - 1], padded - (size_t)width);
    }
}

static gg_jpeg_result gg_encode(const gg_encode_input *in, uint8_t **output, size_t *output_length) {
    gg_jpeg_result result = {0};
    struct jpeg_compress_struct cinfo;
    gg_error_manager manager;
    int planar = in->rgba == NULL;
    if ((planar && (!in->y || !in->cb || !in->cr)) || in->width <= 0 || in->height <= 0) return gg_failure("empty image");
    size_t luma_padded = (size_t)((in->width + 15) / 16) * 16, chroma_padded = luma_padded / 2;
    gg_encode_scratch *scratch = calloc(1, sizeof(gg_encode_scratch));
    if (!scratch) return gg_failure("out of memory");
    scratch->destination = calloc(1, sizeof(gg_destination));
    if (scratch->destination) {
        scratch->destination->capacity = (size_t)in->width * (size_t)in->height / 4 + 65536 + in->icc_length;
        scratch->destination->buffer = malloc(scratch->destination->capacity);
    }
    if (planar) scratch->strip = malloc(luma_padded * 16 + chroma_padded * 8 * 2);
    if (!scratch->destination || !scratch->destination->buffer || (planar && !scratch->strip)) {
        gg_encode_scratch_free(scratch, 0);
        return gg_failure("out of memory");
    }
    manager.result = &result;
    cinfo.err = &manager.pub;
    gg_install(&manager.pub);
    if (setjmp(manager.jump)) {
        jpeg_destroy_compress(&cinfo);
        gg_encode_scratch_free(scratch, 0);
        return result;
    }
    jpeg_create_compress(&cinfo);
    gg_destination *destination = scratch->destination;
    destination->pub.init_destination = gg_init_destination;
    destination->pub.empty_output_buffer = gg_empty_output_buffer;
    destination->pub.term_destination = gg_term_destination;
    cinfo.dest = &destination->pub;
    cinfo.image_width = (JDIMENSION)in->width;
    cinfo.image_height = (JDIMENSION)in->height;
    cinfo.input_components = planar ? 3 : 4;
    cinfo.in_color_space = planar ? JCS_YCbCr : JCS_EXT_RGBA;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, in->quality, TRUE);
    cinfo.optimize_coding = TRUE;
    if (in->progressive) jpeg_simple_progression(&cinfo);
    if (planar) {
        cinfo.raw_data_in = TRUE;
        cinfo.comp_info[0].h_samp_factor = 2;
        cinfo.comp_info[0].v_samp_factor = 2;
        for (int c = 1; c < 3; c++) {
            cinfo.comp_info[c].h_samp_factor = 1;
            cinfo.comp_info[c].v_samp_factor = 1;
        }
    }
    jpeg_start_compress(&cinfo, TRUE);
    if (in->icc && in->icc_length > 0) jpeg_write_icc_profile(&cinfo, in->icc, in->icc_length);
    if (planar) {
        int chroma_width = (in->width + 1) / 2, chroma_height = (in->height + 1) / 2;
        uint8_t *luma_strip = scratch->strip;
        uint8_t *cb_strip = luma_strip + luma_padded * 16;
        uint8_t *cr_strip = cb_strip + chroma_padded * 8;
        JSAMPROW luma_rows[16], cb_rows[8], cr_rows[8];
        for (int r = 0; r < 16; r++) luma_rows[r] = luma_strip + (size_t)r * luma_padded;
        for (int r = 0; r < 8; r++) {
            cb_rows[r] = cb_strip + (size_t)r * chroma_padded;
            cr_rows[r] = cr_strip + (size_t)r * chroma_padded;
        }
        JSAMPROW luma_in_place[16], cb_in_place[8], cr_in_place[8];
        JSAMPARRAY planes[3] = {luma_rows, cb_rows, cr_rows}, in_place[3] = {luma_in_place, cb_in_place, cr_in_place};
        /* Where the width is whole blocks (1600, 2560, 800...) a strip with
           no row past the bottom is read where it lies: the copy into the
           padded strip was a memmove of every rendition (1.5 % of a build). */
        const int whole_blocks = (size_t)in->width == luma_padded;
        while (cinfo.next_scanline < cinfo.image_height) {
            int row = (int)cinfo.next_scanline;
            if (whole_blocks && row + 16 <= in->height && row / 2 + 8 <= chroma_height) {
                for (int r = 0; r < 16; r++) luma_in_place[r] = (JSAMPROW)(in->y + (size_t)(row + r) * in->y_stride);
                for (int r = 0; r < 8; r++) {
                    cb_in_place[r] = (JSAMPROW)(in->cb + (size_t)(row / 2 + r) * in->c_stride);
                    cr_in_place[r] = (JSAMPROW)(in->cr + (size_t)(row / 2 + r) * in->c_stride);
                }
                jpeg_write_raw_data(&cinfo, in_place, 16);
                continue;
            }
            gg_fill_strip(luma_strip, luma_padded, 16, in->y, in->y_stride, in->width, in->height, row);
            gg_fill_strip(cb_strip, chroma_padded, 8, in->cb, in->c_stride, chroma_width, chroma_height, row / 2);
            gg_fill_strip(cr_strip, chroma_padded, 8, in->cr, in->c_stride, chroma_width, chroma_height, row / 2);
            jpeg_write_raw_data(&cinfo, planes, 16);
        }
    } else {
        while (cinfo.next_scanline < cinfo.image_height) {
            JSAMPROW rows[1] = {(JSAMPROW)(in->rgba + (size_t)cinfo.next_scanline * in->rgba_stride)};
            jpeg_write_scanlines(&cinfo, rows, 1);
        }
    }
    jpeg_finish_compress(&cinfo);
    *output_length = destination->capacity - destination->pub.free_in_buffer;
    *output = destination->buffer;
    jpeg_destroy_compress(&cinfo);
    gg_encode_scratch_free(scratch, 1);
    return result;
}

gg_jpeg_result gg_jpeg_encode_rgba(const uint8_t *pixels, int width, int height, size_t stride,
                                   int quality, int progressive,
                                   const uint8_t *icc, unsigned int icc_length,
                                   uint8_t **output, size_t *output_length) {
    gg_encode_input in = {.rgba = pixels, .rgba_stride = stride, .width = width, .height = height, .quality = quality,
                          .progressive = progressive, .icc = icc, .icc_length = icc_length};
    return gg_encode(&in, output, output_length);
}

gg_jpeg_result gg_jpeg_encode_planar(const uint8_t *y, size_t y_stride, const uint8_t *cb, const uint8_t *cr,
                                     size_t c_stride, int width, int height, int quality,
                                     const uint8_t *icc, unsigned int icc_length,
                                     uint8_t **output, size_t *output_length) {
    gg_encode_input in = {.y = y, .cb = cb, .cr = cr, .y_stride = y_stride, .c_stride = c_stride, .width = width,
                          .height = height, .quality = quality, .icc = icc, .icc_length = icc_length};
    return gg_encode(&in, output, output_length);
}

void gg_jpeg_free(void *pointer) { free(pointer); }

/* ---- Planar (YCbCr) decoding, one strip at a time ---------------------- */

struct gg_jpeg_planar {
    struct jpeg_decompress_struct cinfo;
    gg_error_manager manager;
    gg_jpeg_result result;
    int created, failed;
    int components;
    int plane_height[3];
    int delivered[3];        /* rows of each plane handed out so far */
    int strip_rows[3];       /* rows of each plane per iMCU row */
    size_t stride[3];
    int slots[3];            /* strips each plane's buffer holds (gg_jpeg_planar_keep) */
    long strips_read;
    uint8_t *buffer[3];
    JSAMPROW *pointers[3];
    uint8_t *icc;            /* until handed to the caller */
};

static int gg_planar_size(const jpeg_component_info *c) {
#if JPEG_LIB_VERSION >= 70
    return c->DCT_v_scaled_size;
#else
    return c->DCT_scaled_size;
#endif
}

static int gg_planar_min_size(const struct jpeg_decompress_struct *cinfo) {
#if JPEG_LIB_VERSION >= 70
    return cinfo->min_DCT_v_scaled_size;
#else
    return cinfo->min_DCT_scaled_size;
#endif
}

gg_jpeg_result gg_jpeg_planar_open(const uint8_t *data, size_t length, int scale_denom,
                                   gg_jpeg_planar **decoder, gg_jpeg_planar_info *info,
                                   uint8_t **icc, unsigned int *icc_length) {
    *decoder = NULL;
    gg_jpeg_planar *d = calloc(1, sizeof(gg_jpeg_planar));
    if (!d) return gg_failure("out of memory");
    d->manager.result = &d->result;
    d->cinfo.err = &d->manager.pub;
    gg_install(&d->manager.pub);
    if (setjmp(d->manager.jump)) {
        /* The caller owns d only once it is handed out. */
        gg_jpeg_result r = d->result;
        gg_jpeg_planar_close(d);
        return r;
    }
    jpeg_create_decompress(&d->cinfo);
    d->created = 1;
    if (!gg_valid_denominator(scale_denom)) scale_denom = 1;
    jpeg_mem_src(&d->cinfo, data, (unsigned long)length);
    if (icc) jpeg_save_markers(&d->cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&d->cinfo, TRUE);
    int grey = d->cinfo.num_components == 1 && d->cinfo.jpeg_color_space == JCS_GRAYSCALE;
    int ycc = d->cinfo.num_components == 3 && d->cinfo.jpeg_color_space == JCS_YCbCr;
    if (!grey && !ycc) {
        gg_jpeg_result r = d->result;
        gg_jpeg_planar_close(d);
        return r; /* not planar: success, *decoder stays NULL */
    }
    if (icc) {
        unsigned int len = 0;
        if (jpeg_read_icc_profile(&d->cinfo, &d->icc, &len) && len > 0) {
            *icc_length = len;
        } else {
            free(d->icc);
            d->icc = NULL;
        }
    }
    d->cinfo.raw_data_out = TRUE;
    d->cinfo.out_color_space = d->cinfo.jpeg_color_space;
    d->cinfo.scale_num = 1;
    d->cinfo.scale_denom = (unsigned int)scale_denom;
    jpeg_start_decompress(&d->cinfo);
    d->components = d->cinfo.num_components;
    info->components = d->components;
    info->output_width = (int)d->cinfo.output_width;
    info->output_height = (int)d->cinfo.output_height;
    for (int p = 0; p < d->components; p++) {
        jpeg_component_info *c = &d->cinfo.comp_info[p];
        int rows = c->v_samp_factor * gg_planar_size(c);
        d->strip_rows[p] = rows;
        d->stride[p] = (size_t)c->width_in_blocks * (size_t)gg_planar_size(c);
        d->plane_height[p] = (int)c->downsampled_height;
        info->plane_width[p] = (int)c->downsampled_width;
        info->plane_height[p] = (int)c->downsampled_height;
        d->slots[p] = 1;
        d->buffer[p] = malloc(d->stride[p] * (size_t)rows);
        d->pointers[p] = malloc(sizeof(JSAMPROW) * (size_t)rows);
        if (!d->buffer[p] || !d->pointers[p]) ERREXIT1(&d->cinfo, JERR_OUT_OF_MEMORY, 2);
        for (int r = 0; r < rows; r++) d->pointers[p][r] = d->buffer[p] + (size_t)r * d->stride[p];
    }
    if (icc && d->icc) {
        *icc = d->icc;
        d->icc = NULL;
    }
    *decoder = d;
    return d->result;
}

gg_jpeg_result gg_jpeg_planar_keep(gg_jpeg_planar *d, const int kept[3]) {
    if (d->failed || d->result.status != 0) return d->result;
    for (int p = 0; p < d->components; p++) {
        /* While strip n is handed out, strips n - slots + 1 ... n are intact:
           at least (slots - 1) * strip_rows + 1 of the latest rows. */
        int want = kept[p] > 1 ? 1 + (kept[p] - 2) / d->strip_rows[p] + 1 : 1;
        if (want <= d->slots[p]) continue;
        uint8_t *grown = realloc(d->buffer[p], d->stride[p] * (size_t)d->strip_rows[p] * (size_t)want);
        if (!grown) return gg_failure("out of memory");
        d->buffer[p] = grown;
        d->slots[p] = want;
    }
    return d->result;
}

gg_jpeg_result gg_jpeg_planar_read(gg_jpeg_planar *d, const uint8_t *planes[3], size_t strides[3],
                                   int rows[3], int *finished) {
    for (int p = 0; p < 3; p++) { planes[p] = NULL; strides[p] = 0; rows[p] = 0; }
    *finished = 1;
    if (d->failed || d->result.status != 0) return d->result;
    if (setjmp(d->manager.jump)) {
        d->failed = 1;
        return d->result;
    }
    if (d->cinfo.output_scanline >= d->cinfo.output_height) return d->result;
    JDIMENSION lines = (JDIMENSION)(d->cinfo.max_v_samp_factor * gg_planar_min_size(&d->cinfo));
    uint8_t *strip[3] = {NULL, NULL, NULL};
    for (int p = 0; p < d->components; p++) {
        strip[p] = d->buffer[p] + (size_t)(d->strips_read % d->slots[p]) * (size_t)d->strip_rows[p] * d->stride[p];
        for (int r = 0; r < d->strip_rows[p]; r++) d->pointers[p][r] = strip[p] + (size_t)r * d->stride[p];
    }
    jpeg_read_raw_data(&d->cinfo, d->pointers, lines);
    d->strips_read++;
    for (int p = 0; p < d->components; p++) {
        int left = d->plane_height[p] - d->delivered[p];
        int n = left < d->strip_rows[p] ? left : d->strip_rows[p];
        if (n < 0) n = 0;
        planes[p] = strip[p];
        strides[p] = d->stride[p];
        rows[p] = n;
        d->delivered[p] += n;
    }
    *finished = d->cinfo.output_scanline >= d->cinfo.output_height;
    return d->result;
}

gg_jpeg_result gg_jpeg_planar_finish(gg_jpeg_planar *d) {
    if (d->failed || d->result.status != 0) return d->result;
    if (setjmp(d->manager.jump)) {
        d->failed = 1;
        return d->result;
    }
    jpeg_finish_decompress(&d->cinfo);
    return d->result;
}

void gg_jpeg_planar_close(gg_jpeg_planar *d) {
    if (!d) return;
    if (d->created) jpeg_destroy_decompress(&d->cinfo);
    for (int p = 0; p < 3; p++) {
        free(d->buffer[p]);
        free(d->pointers[p]);
    }
    free(d->icc);
    free(d);
}
