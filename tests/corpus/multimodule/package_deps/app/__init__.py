"""The application package."""
