// A loopback HTTP proxy that adds the bearer token to every request. The
// conformance suite takes only --url, so it cannot send Palace's token
// itself; Palace keeps requiring it and the proxy plays the configured
// client. Host, Origin and every other header pass through unchanged, so
// the suite's DNS-rebinding checks still reach Palace's own guard.
import http from "node:http";

export function startAuthProxy(target, token) {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    const fwd = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
        setHost: false,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    fwd.on("error", (err) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`proxy: ${err.message}`);
    });
    req.pipe(fwd);
    res.on("close", () => fwd.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}${upstream.pathname}`,
        close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }),
      });
    });
  });
}
