// Types for the undici files src/backend/undici.ts loads directly (undici types its index only).
declare module "undici/lib/dispatcher/env-http-proxy-agent.js" {
  import type { EnvHttpProxyAgent } from "undici";
  const EnvHttpProxyAgentClass: typeof EnvHttpProxyAgent;
  export default EnvHttpProxyAgentClass;
}
declare module "undici/lib/dispatcher/dispatcher.js" {
  import type { Dispatcher } from "undici";
  const DispatcherClass: typeof Dispatcher;
  export default DispatcherClass;
}
declare module "undici/lib/api/index.js" {
  const methods: Record<string, unknown>;
  export default methods;
}
declare module "undici/lib/interceptor/redirect.js" {
  import type { interceptors } from "undici";
  const redirect: typeof interceptors.redirect;
  export default redirect;
}
