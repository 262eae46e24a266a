"""mcpdeps graph."""
