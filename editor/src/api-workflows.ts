// The workflows list's REST calls beyond api.ts: tags (n8n's /rest/tags) and "Import from URL".
import { api, call, savable, type StoredWorkflow } from "./api";
import type { Workflow } from "./graph";

export interface Tag {
  id: string;
  name: string;
  usageCount?: number;
}

/** A workflow as the list shows it: with its tags (``[{id, name}]``, as n8n's). */
export interface ListedWorkflow extends StoredWorkflow {
  tags?: Tag[];
}

export const tagsApi = {
  list: () => call<{ data: Tag[] }>("GET", "/rest/tags?withUsageCount=true").then((r) => r.data),
  create: (name: string) => call<{ data: Tag }>("POST", "/rest/tags", { name }).then((r) => r.data),
  rename: (id: string, name: string) =>
    call<{ data: Tag }>("PATCH", `/rest/tags/${encodeURIComponent(id)}`, { name }).then((r) => r.data),
  remove: (id: string) => call<{ data: boolean }>("DELETE", `/rest/tags/${encodeURIComponent(id)}`),
};

/** Save the workflow ``id`` with these tags (n8n's editor sends their ids as ``tags`` in the save). */
export async function setWorkflowTags(id: string, tagIds: string[]): Promise<StoredWorkflow> {
  const workflow = savable(await api.workflow(id));
  return api.save(id, { ...workflow, tags: tagIds });
}

/** The n8n workflow JSON at ``url``, fetched by the server (n8n's ``GET /rest/workflows/from-url``). */
export function workflowFromUrl(url: string): Promise<Workflow> {
  return call<{ data: Workflow }>("GET", `/rest/workflows/from-url?url=${encodeURIComponent(url)}`).then(
    (r) => r.data,
  );
}
