"""Many games at once: the asynchronous runner, its progress display, Ray workers."""
