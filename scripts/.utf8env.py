#!python
# The companion of bin/utf8env (see there): pip writes its interpreter on the first line,
# and it is the usual start, with site, where the package is not where the stub looks.
import sys

from utf8env._cli import main

sys.exit(main())
