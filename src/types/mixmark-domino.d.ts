// The part of @mixmark-io/domino (turndown's DOM in Node) that the MCD import uses to lay out
// HTML tables and bound lists before turndown converts them: the package's own types declare a module "domino".
declare module "@mixmark-io/domino" {
  export interface DominoElement {
    readonly tagName: string;
    readonly nodeName: string;
    readonly parentNode: DominoElement | null;
    readonly nextSibling: DominoElement | null;
    readonly children: ArrayLike<DominoElement>;
    readonly parentElement: DominoElement | null;
    readonly ownerDocument: DominoDocument;
    getAttribute(name: string): string | null;
    removeAttribute(name: string): void;
    insertBefore(node: DominoElement, before: DominoElement | null): void;
    appendChild(node: DominoElement): void;
    querySelectorAll(selectors: string): ArrayLike<DominoElement>;
    closest(selectors: string): DominoElement | null;
  }
  export interface DominoDocument {
    createElement(tagName: string): DominoElement;
    getElementById(id: string): DominoElement | null;
  }
  export function createDocument(html?: string): DominoDocument;
}
