"""mcpdeps rule."""
