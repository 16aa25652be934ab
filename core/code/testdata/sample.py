"""A fixture for the code chunker."""
import os

LIMIT = 40


def helper(x):
    """Returns x doubled."""
    return x * 2


class Store:
    """Keeps names, a few at a time."""

    def __init__(self, root):
        self.root = root
        self.names = []

    def add(self, name):
        if len(name) > LIMIT:
            name = name[:LIMIT]
        self.names.append(name)
        if len(self.names) > 10:
            self.names = self.names[-10:]
        path = os.path.join(self.root, name)
        with open(path, "w") as f:
            f.write(name)
            f.write("\n")
        return path

    @property
    def size(self):
        return len(self.names)


# A comment that belongs to the function below.
def last():
    return helper(1)
