// Connects the official TypeScript MCP SDK client to a streamable-HTTP URL, lists the tools, calls one, and
// prints what it got as one JSON line: node client.mjs <url> '<headers JSON>' '<tool>' '<arguments JSON>'
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, headers, tool, args] = process.argv.slice(2);
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: JSON.parse(headers || '{}') },
});
const client = new Client({ name: 'weft-ts-test', version: '1.0.0' });
try {
  await client.connect(transport);
  const listed = await client.listTools();
  const called = await client.callTool({ name: tool, arguments: JSON.parse(args || '{}') });
  const server = client.getServerVersion();
  await transport.terminateSession();
  await client.close();
  console.log(JSON.stringify({ server, tools: listed.tools, called }));
} catch (error) {
  console.log(JSON.stringify({ error: String(error && error.message ? error.message : error), code: error?.code }));
  process.exitCode = 1;
}
