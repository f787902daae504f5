"""The .puz language: parsing text into the syntax model, and elaborating it with parameters."""
