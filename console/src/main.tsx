import { render } from "preact";
import { App } from "./app.js";
import "./styles.css";

const root = document.getElementById("app");
if (root === null) throw new Error("index.html lacks the #app element");
if (window.location.hash === "" || window.location.hash === "#" || window.location.hash === "#/") window.location.hash = "#/databases";
render(<App />, root);
