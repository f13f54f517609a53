/* Only libpng's "simplified" API is used: it reports errors through
   png_image.message instead of longjmp, so no C trampoline is needed. */
#include <png.h>
