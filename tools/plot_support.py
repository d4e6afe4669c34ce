"""What the plotting tools share: matplotlib's pyplot, or a clear message where it is missing."""
import sys


def pyplot(tool):
    """matplotlib.pyplot with the file-only Agg backend, or None after a message on stderr."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.stderr.write(
            "%s: matplotlib is missing from %s; run it with Debian's /usr/bin/python3 "
            "(package python3-matplotlib)\n" % (tool, sys.executable))
        return None
    return plt
