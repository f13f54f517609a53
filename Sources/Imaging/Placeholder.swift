enum PlaceholderImaging {}
