// The REST calls of the credentials page and the node panel's credential select: n8n's ``/rest/credentials``
// (``includeData`` answers the data with every secret replaced by n8n's placeholder), its ``test`` route and the
// credential types (n8n's ``/types/credentials.json``, here ``/rest/credential-types``).
import { call } from "./api";
import type { NodeProperty } from "./api-node-types";

export interface CredentialSummary {
  id: string;
  name: string;
  type: string;
  createdAt?: string | null;
  updatedAt?: string | null;
  /** With ``includeData``: the data, secrets as n8n's blank placeholder. */
  data?: Record<string, unknown>;
}

export interface CredentialType {
  name: string;
  displayName: string;
  documentationUrl?: string;
  extends?: string[];
  genericAuth?: boolean;
  /** How the type authenticates requests (n8n's recipe of expressions; ``{}`` for a function). */
  authenticate?: Record<string, unknown>;
  properties: NodeProperty[];
  /** Whether the server can run the type's test request. */
  testable: boolean;
}

export interface TestResult {
  status: "OK" | "Error";
  message: string;
}

let types: Promise<CredentialType[]> | null = null;

export const credentialsApi = {
  async list(type?: string): Promise<CredentialSummary[]> {
    const query = type ? `?type=${encodeURIComponent(type)}` : "";
    return (await call<{ data: CredentialSummary[] }>("GET", `/rest/credentials${query}`)).data;
  },
  async get(id: string): Promise<CredentialSummary> {
    return (await call<{ data: CredentialSummary }>("GET", `/rest/credentials/${encodeURIComponent(id)}?includeData=true`)).data;
  },
  async create(name: string, type: string, data: Record<string, unknown>): Promise<CredentialSummary> {
    return (await call<{ data: CredentialSummary }>("POST", "/rest/credentials", { name, type, data })).data;
  },
  async update(id: string, name: string, type: string, data: Record<string, unknown>): Promise<CredentialSummary> {
    const path = `/rest/credentials/${encodeURIComponent(id)}`;
    return (await call<{ data: CredentialSummary }>("PATCH", path, { name, type, data })).data;
  },
  async remove(id: string): Promise<void> {
    await call("DELETE", `/rest/credentials/${encodeURIComponent(id)}`);
  },
  /** n8n's ``POST /rest/credentials/test``: a stored credential's placeholders are its stored secrets. */
  async test(credential: { id?: string; name: string; type: string; data: Record<string, unknown> }): Promise<TestResult> {
    return (await call<{ data: TestResult }>("POST", "/rest/credentials/test", { credentials: credential })).data;
  },
  /** Every credential type the server knows (fetched once). */
  types(): Promise<CredentialType[]> {
    if (!types) {
      types = call<{ data: CredentialType[] }>("GET", "/rest/credential-types").then((answer) => answer.data);
      types.catch(() => (types = null));
    }
    return types;
  },
};
