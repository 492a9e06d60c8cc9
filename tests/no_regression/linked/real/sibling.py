WORD = "hi"
