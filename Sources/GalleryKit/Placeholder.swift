enum PlaceholderGalleryKit {}
