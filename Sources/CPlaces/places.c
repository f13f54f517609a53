#include "gg_places.h"

/* #embed (C23, an extension before it in clang) keeps a 3 MB table out of
   the Swift compiler: a literal of that size would take minutes to type-check. */
#pragma clang diagnostic ignored "-Wc23-extensions"
static const unsigned char places[] = {
#embed "cities1000.bin"
};

const unsigned char *gg_places_bytes(void) { return places; }
size_t gg_places_count(void) { return sizeof places; }
