// A tiny history-API router: the server answers index.html for every one of these paths.
import { ref } from "vue";

export type Route =
  | { name: "list" }
  | { name: "signin" }
  | { name: "executions" }
  | { name: "credentials" }
  | { name: "workflow"; id: string }
  | { name: "execution"; id: string; executionId: string };

export function parse(path: string): Route {
  const execution = /^\/workflow\/([^/]+)\/executions\/([^/]+)\/?$/.exec(path);
  if (execution) return { name: "execution", id: decodeURIComponent(execution[1]), executionId: decodeURIComponent(execution[2]) };
  const workflow = /^\/workflow\/([^/]+)\/?$/.exec(path);
  if (workflow) return { name: "workflow", id: decodeURIComponent(workflow[1]) };
  if (path.startsWith("/signin")) return { name: "signin" };
  if (/^\/home\/executions\/?$/.test(path)) return { name: "executions" };
  if (/^\/home\/credentials\/?$/.test(path)) return { name: "credentials" };
  return { name: "list" };
}

export const route = ref<Route>(parse(window.location.pathname));

export function navigate(path: string): void {
  if (window.location.pathname !== path) window.history.pushState({}, "", path);
  route.value = parse(path);
}

window.addEventListener("popstate", () => {
  route.value = parse(window.location.pathname);
});
