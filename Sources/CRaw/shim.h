// The thread-safe build (libraw_r): renditions are made on several threads.
#include <stdio.h>
#include <libraw/libraw.h>
