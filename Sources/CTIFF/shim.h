#include <stdarg.h>
#include <tiffio.h>
