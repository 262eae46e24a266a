"""mcpdeps call."""
