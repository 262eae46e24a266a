"""mcpdeps lint."""
