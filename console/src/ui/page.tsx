import type { ComponentChildren } from "preact";

/** A screen's frame: its title, an optional line under it, actions on the right, then its content. */
export function Page(props: { title: string; subtitle?: ComponentChildren; actions?: ComponentChildren; children: ComponentChildren; testId: string }) {
  return (
    <section class="page" data-testid={props.testId}>
      <header class="page-header">
        <div>
          <h1>{props.title}</h1>
          {props.subtitle ? <p class="subtitle">{props.subtitle}</p> : null}
        </div>
        {props.actions ? <div class="page-actions">{props.actions}</div> : null}
      </header>
      {props.children}
    </section>
  );
}

/** A titled block inside a page. */
export function Panel(props: { title?: string; children: ComponentChildren; testId?: string; actions?: ComponentChildren }) {
  return (
    <div class="panel" data-testid={props.testId}>
      {props.title || props.actions ? (
        <div class="panel-header">
          {props.title ? <h2>{props.title}</h2> : <span />}
          {props.actions}
        </div>
      ) : null}
      {props.children}
    </div>
  );
}

/** Shown where a screen needs a database and none is chosen. */
export function NeedsDatabase() {
  return (
    <p class="hint" data-testid="needs-database">
      Choose a database in the header first (or create one under <a href="#/databases">Databases</a>).
    </p>
  );
}

/** Shown in place of a screen that works on a context database while a graph database is chosen. */
export function GraphDatabaseChosen(props: { title: string; database: string }) {
  return (
    <section class="page" data-testid="graph-database-chosen">
      <header class="page-header">
        <h1>{props.title}</h1>
      </header>
      <p class="hint">
        <b class="mono">{props.database}</b> is a graph database: it holds the graph collections of the <a href="#/cypher">Cypher console</a> only. Choose a
        context database in the header for this screen (or create one under <a href="#/databases">Databases</a>).
      </p>
    </section>
  );
}
