import { describe, expect, it } from "vitest";
import { APP_SCRIPT_PROLOGUE, planAppScripts, refusedScriptSources, servedAppScript } from "./app-scripts";

describe("planAppScripts", () => {
  it("turns every script of the app into a URL of its code, and keeps data blocks as text without a URL", () => {
    const plan = planAppScripts({
      files: {
        "index.html": [
          '<script nonce="guessed" integrity="sha256-x" crossorigin="use-credentials">a()</script>',
          '<script type="module" src="./m.js" async></script>',
          '<script src="https://cdn.example/x.js"></script>',
          '<script type="text/plain" src="https://cdn.example/carrier.js">carrier</script>',
          "<script>a()</script>",
          "<script>  </script>",
          '<script type="application/json" id="data">{"x":1}</script>',
        ].join("\n"),
        "m.js": "export const m = 1;",
      },
    });
    expect(plan.scripts).toEqual(["a()", "export const m = 1;"]);
    expect(plan.refused).toEqual(["https://cdn.example/x.js"]);
    expect(plan.render((i) => `U${i}`).split("\n")).toEqual([
      '<script src="U0"></script>',
      '<script src="U1" type="module" async></script>',
      "",
      '<script type="text/plain">carrier</script>',
      '<script src="U0"></script>',
      "",
      '<script type="application/json" id="data">{"x":1}</script>',
    ]);
  });

  it("lists each src that names no file of the app, by file and line", () => {
    expect(
      refusedScriptSources({
        html: '<p>\n<script src="app.js"></script>\n<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
        files: { "app.js": "1", "b.htm": "<script src='data:text/javascript,1'></script>" },
      }),
    ).toEqual([
      { file: "html", line: 3, src: "//evil.example/x.js" },
      { file: "b.htm", line: 1, src: "data:text/javascript,1" },
    ]);
  });

  it("serves the code after the prologue, behind a leading use strict directive", () => {
    expect(servedAppScript("x()")).toBe(APP_SCRIPT_PROLOGUE + "x()");
    expect(servedAppScript('// hi\n"use strict"; x()')).toBe('// hi\n"use strict";' + APP_SCRIPT_PROLOGUE + " x()");
    expect(APP_SCRIPT_PROLOGUE).not.toContain("\n");
  });
});
