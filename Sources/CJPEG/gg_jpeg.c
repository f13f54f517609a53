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
    if (!scratch) {
        result.status = -1;
        snprintf(result.message, GG_JPEG_MESSAGE_MAX, "out of memory");
        return result;
    }
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

gg_jpeg_result gg_jpeg_encode_rgba(const uint8_t *pixels, int width, int height, size_t stride,
                                   int quality, int progressive,
                                   const uint8_t *icc, unsigned int icc_length,
                                   uint8_t **output, size_t *output_length) {
    gg_jpeg_result result = {0};
    struct jpeg_compress_struct cinfo;
    gg_error_manager manager;
    gg_destination *destination = calloc(1, sizeof(gg_destination));
    if (!destination) {
        result.status = -1;
        snprintf(result.message, GG_JPEG_MESSAGE_MAX, "out of memory");
        return result;
    }
    destination->capacity = (size_t)width * (size_t)height / 4 + 65536 + icc_length;
    destination->buffer = malloc(destination->capacity);
    if (!destination->buffer) {
        free(destination);
        result.status = -1;
        snprintf(result.message, GG_JPEG_MESSAGE_MAX, "out of memory");
        return result;
    }
    manager.result = &result;
    cinfo.err = &manager.pub;
    gg_install(&manager.pub);
    if (setjmp(manager.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(destination->buffer);
        free(destination);
        return result;
    }
    jpeg_create_compress(&cinfo);
    destination->pub.init_destination = gg_init_destination;
    destination->pub.empty_output_buffer = gg_empty_output_buffer;
    destination->pub.term_destination = gg_term_destination;
    cinfo.dest = &destination->pub;
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 4;
    cinfo.in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.optimize_coding = TRUE;
    if (progressive) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    if (icc && icc_length > 0) jpeg_write_icc_profile(&cinfo, icc, icc_length);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW rows[1] = {(JSAMPROW)(pixels + (size_t)cinfo.next_scanline * stride)};
        jpeg_write_scanlines(&cinfo, rows, 1);
    }
    jpeg_finish_compress(&cinfo);
    *output_length = destination->capacity - destination->pub.free_in_buffer;
    *output = destination->buffer;
    jpeg_destroy_compress(&cinfo);
    free(destination);
    return result;
}

void gg_jpeg_free(void *pointer) { free(pointer); }
