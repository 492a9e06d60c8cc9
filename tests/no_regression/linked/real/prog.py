# Started through a symlink in another folder: sys.path[0] is this file's own folder.
import sibling

print("sibling says", sibling.WORD)
