enum PlaceholderRendering {}
