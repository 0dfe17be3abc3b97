"""Save files: one versioned JSON format (header + setup + options + log), written atomically."""
