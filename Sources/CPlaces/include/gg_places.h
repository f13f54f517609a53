#ifndef GG_PLACES_H
#define GG_PLACES_H
#include <stddef.h>

/* The offline place names of `moment_places` (cities1000.bin, made by
   scripts/make_places.py from GeoNames' cities1000, CC BY 4.0): the file's
   bytes, built into the program so an installed gallerygen needs no data
   folder. Read only by Metadata's PlaceFinder, and only when the setting is on. */
const unsigned char *gg_places_bytes(void);
size_t gg_places_count(void);

#endif
