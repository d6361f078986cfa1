// Clicks on the cytoscape canvas at a node's drawn position, as a user would: the node's place on
// the page comes from the cytoscape instance that cytoscape registers on its container element.
import type { Page } from "playwright-core";

interface Registered {
  _cyreg?: { cy?: { getElementById(id: string): { empty(): boolean; renderedPosition(): { x: number; y: number } } } };
}

/** The page coordinates of the node's centre on the canvas. */
async function nodeOnCanvas(page: Page, nodeId: string, canvasTestId = "graph-canvas"): Promise<{ x: number; y: number }> {
  const canvas = page.getByTestId(canvasTestId).first();
  // cytoscape is loaded on demand: wait until the canvas has it
  await page.locator(`[data-testid="${canvasTestId}"][data-ready="true"]`).first().waitFor();
  const box = await canvas.boundingBox();
  if (box === null) throw new Error("the graph canvas is not visible");
  const at = await canvas.evaluate((element, id) => {
    const node = (element as unknown as Registered)._cyreg?.cy?.getElementById(id);
    return node && !node.empty() ? node.renderedPosition() : null;
  }, nodeId);
  if (at === null) throw new Error(`node ${nodeId} is not drawn`);
  return { x: box.x + at.x, y: box.y + at.y };
}

export async function clickNode(page: Page, nodeId: string): Promise<void> {
  const at = await nodeOnCanvas(page, nodeId);
  await page.mouse.click(at.x, at.y);
}

export async function doubleClickNode(page: Page, nodeId: string): Promise<void> {
  const at = await nodeOnCanvas(page, nodeId);
  await page.mouse.dblclick(at.x, at.y);
}
