// The reference of the API benchmark (scripts/bench-api.ts): a bare Fastify route, nothing else,
// on the port given, 127.0.0.1 only. It answers a small fixed JSON object.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ ok: true, items: [], total: 0 }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
