"""Notes kept in text files, as many programs do: with the locale's encoding."""
