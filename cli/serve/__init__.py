"""mcpdeps serve."""
