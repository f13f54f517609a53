#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "gg_linux_files.h"

ssize_t gg_copy_file_range(int from, int64_t *offset, int to, size_t count) {
    off64_t at = (off64_t)*offset;
    ssize_t copied = copy_file_range(from, &at, to, NULL, count, 0);
    if (copied > 0) *offset = (int64_t)at;
    return copied;
}

int gg_exchange_files(const char *a, const char *b) {
    return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
}
