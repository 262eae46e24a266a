"""mcpdeps new."""
