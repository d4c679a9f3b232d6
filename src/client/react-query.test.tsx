import { installJsdomGlobals, removeJsdomGlobals } from "./testing/jsdom-globals";
import { QueryClient, QueryClientProvider, useQueries } from "@tanstack/react-query";
import { act, cleanup, render, renderHook, screen, waitFor } from "@testing-library/react";
import { Suspense, type ReactNode } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, type TestPlatform } from "../server/testing/test-platform";
import { createSvcPlatformClient, SvcPlatformApiError, type SvcPlatformClient } from "./index";
import {
  SvcCloudApiProvider,
  SvcPlatformApiProvider,
  useSvcCloudApi,
  useSvcCloudApiMutation,
  useSvcCloudApiQuery,
  useSvcCloudApiQueryOptions,
  useSvcCloudApiSuspenseQuery,
  useSvcPlatformApi,
  useSvcPlatformApiMutation,
  useSvcPlatformApiQuery,
  useSvcPlatformApiQueryOptions,
  useSvcPlatformApiSuspenseQuery,
} from "./react-query";

// The document is this file's only: the next file in the worker runs without one.
beforeAll(installJsdomGlobals);
afterAll(removeJsdomGlobals);

describe("react-query hooks", () => {
  let t: TestPlatform;
  let client: SvcPlatformClient;
  let badClient: SvcPlatformClient;

  beforeAll(async () => {
    t = await createTestPlatform();
    // The in-process server: every request runs through the real app.
    const fetch = (request: Request) => Promise.resolve(t.app.fetch(request));
    client = createSvcPlatformClient({ baseUrl: "http://svc.test", token: t.adminToken, fetch });
    badClient = createSvcPlatformClient({ baseUrl: "http://svc.test", token: "svc_unknown", fetch });
  });
  afterAll(() => t.close());
  afterEach(cleanup);

  const wrapperFor =
    (c: SvcPlatformClient) =>
    ({ children }: { children: ReactNode }) => (
      <SvcPlatformApiProvider client={c} queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        {children}
      </SvcPlatformApiProvider>
    );

  it("loads typed data with useSvcPlatformApiQuery", async () => {
    const { result } = renderHook(() => useSvcPlatformApiQuery("get", "/api/v1/api-keys"), { wrapper: wrapperFor(client) });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    const names: string[] = result.current.data!.items.map((k) => k.name);
    expect(names.some((n) => n.startsWith("admin"))).toBe(true);
  });

  it("fails the query with SvcPlatformApiError carrying status and code", async () => {
    const { result } = renderHook(() => useSvcPlatformApiQuery("get", "/api/v1/deployments/{deploymentId}", { params: { path: { deploymentId: 999 } } }), {
      wrapper: wrapperFor(badClient),
    });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toBeInstanceOf(SvcPlatformApiError);
    expect(result.current.error).toMatchObject({ status: 401, code: "unauthorized" });
  });

  it("suspends with useSvcPlatformApiSuspenseQuery until the data is there", async () => {
    function Keys() {
      const { data } = useSvcPlatformApiSuspenseQuery("get", "/api/v1/api-keys");
      return <p>keys: {data.items.length}</p>;
    }
    render(
      <Suspense fallback={<p>loading</p>}>
        <Keys />
      </Suspense>,
      { wrapper: wrapperFor(client) },
    );
    expect(screen.getByText("loading")).toBeTruthy();
    await screen.findByText(/keys: \d+/);
  });

  it("runs a mutation with useSvcPlatformApiMutation", async () => {
    const { result } = renderHook(() => useSvcPlatformApiMutation("post", "/api/v1/api-keys"), { wrapper: wrapperFor(client) });
    let created: Awaited<ReturnType<typeof result.current.mutateAsync>> | undefined;
    await act(async () => {
      created = await result.current.mutateAsync({ body: { name: "from-hook" } });
    });
    expect(created!.token).toMatch(/^svc_/);
    const listed = await client.GET("/api/v1/api-keys");
    expect(listed.data!.items.map((k) => k.name)).toContain("from-hook");
  });

  it("builds query options usable with useQueries", async () => {
    const { result } = renderHook(
      () => {
        const keys = useSvcPlatformApiQueryOptions("get", "/api/v1/api-keys");
        const deps = useSvcPlatformApiQueryOptions("get", "/api/v1/deployments", { params: { query: { first: 1 } } });
        return { keys, results: useQueries({ queries: [keys, deps] }) };
      },
      { wrapper: wrapperFor(client) },
    );
    expect(result.current.keys.queryKey).toEqual(["get", "/api/v1/api-keys", undefined]);
    await waitFor(() => expect(result.current.results.every((r) => r.isSuccess)).toBe(true));
  });

  it("gives the provider's client to useSvcPlatformApi and refuses to run without a provider", () => {
    const { result } = renderHook(() => useSvcPlatformApi(), { wrapper: wrapperFor(client) });
    expect(result.current).toBe(client);
    const qc = new QueryClient();
    expect(() =>
      renderHook(() => useSvcPlatformApi(), { wrapper: ({ children }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider> }),
    ).toThrow(/SvcPlatformApiProvider/);
  });

  it("keeps the deprecated SvcCloud names as the same objects", () => {
    expect(SvcCloudApiProvider).toBe(SvcPlatformApiProvider);
    expect(useSvcCloudApi).toBe(useSvcPlatformApi);
    expect(useSvcCloudApiQuery).toBe(useSvcPlatformApiQuery);
    expect(useSvcCloudApiSuspenseQuery).toBe(useSvcPlatformApiSuspenseQuery);
    expect(useSvcCloudApiMutation).toBe(useSvcPlatformApiMutation);
    expect(useSvcCloudApiQueryOptions).toBe(useSvcPlatformApiQueryOptions);
  });

  it("types hooks by method and path", () => {
    // Compile-time checks; the hook is never called.
    const useTypeChecks = () => {
      // @ts-expect-error: no such path
      useSvcPlatformApiQuery("get", "/api/v1/nope");
      // @ts-expect-error: the path has no GET
      useSvcPlatformApiQuery("get", "/api/v1/embed/session/token");
      // @ts-expect-error: a required path parameter is missing
      useSvcPlatformApiQuery("get", "/api/v1/deployments/{deploymentId}");
      // @ts-expect-error: body field of the wrong type
      useSvcPlatformApiMutation("post", "/api/v1/api-keys").mutate({ body: { name: 3 } });
    };
    expect(typeof useTypeChecks).toBe("function");
  });
});
