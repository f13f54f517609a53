enum PlaceholderScanning {}
