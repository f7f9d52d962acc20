<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de" sourcelanguage="en">
<context>
    <name>QObject</name>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>the file does not exist</source>
        <translation>die Datei existiert nicht</translation>
    </message>
    <message>
        <source>the file is not readable</source>
        <translation>die Datei ist nicht lesbar</translation>
    </message>
    <message>
        <source>the file is empty</source>
        <translation>die Datei ist leer</translation>
    </message>
    <message>
        <source>not an SQLite report (%1)</source>
        <translation>kein SQLite-Bericht (%1)</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>Gewicht</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Gradient</source>
        <translation>Gradient</translation>
    </message>
    <message>
        <source>Share of peak</source>
        <translation>Spitzenanteil</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>Operation</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>Anteil</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>Anzahl</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>Operations</source>
        <translation>Operationen</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>Gewichte</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>Aktivierungen</translation>
    </message>
    <message>
        <source>No editor command is set (Settings › Editor).</source>
        <translation>Es ist kein Editor-Befehl eingestellt (Einstellungen › Editor).</translation>
    </message>
    <message>
        <source>Could not start the editor &quot;%1&quot;. Check the editor command in Settings.</source>
        <translation>Der Editor „%1“ konnte nicht gestartet werden. Prüfen Sie den Editor-Befehl in den Einstellungen.</translation>
    </message>
    <message>
        <source>No project root is set (File › Set Project Root…).</source>
        <translation>Es ist kein Projektordner festgelegt (Datei › Projektordner festlegen …).</translation>
    </message>
    <message>
        <source>Refused to open %1: stack frames must be relative to the project root.</source>
        <translation>%1 wird nicht geöffnet: Stack-Frames müssen relativ zum Projektordner sein.</translation>
    </message>
    <message>
        <source>Refused to open %1: the path leaves the project root %2.</source>
        <translation>%1 wird nicht geöffnet: Der Pfad führt aus dem Projektordner %2 hinaus.</translation>
    </message>
    <message>
        <source>%1 is not in the project root %2. Set the project root to the folder the model was profiled from (File › Set Project Root…).</source>
        <translation>%1 liegt nicht im Projektordner %2. Legen Sie als Projektordner den Ordner fest, aus dem das Modell profiliert wurde (Datei › Projektordner festlegen …).</translation>
    </message>
    <message>
        <source>Refused to open %1: it links to a file outside the project root.</source>
        <translation>%1 wird nicht geöffnet: Die Datei verweist auf eine Datei außerhalb des Projektordners.</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Bytes</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>Gradienten</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Sonstiges</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>Vorwärts</translation>
    </message>
    <message>
        <source>Backward</source>
        <translation>Rückwärts</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1 — %2: %3</source>
        <translation>%1 – %2: %3</translation>
    </message>
    <message>
        <source>table %1 is missing</source>
        <translation>Tabelle %1 fehlt</translation>
    </message>
    <message>
        <source>%1 is not a plain table (it is a %2)</source>
        <translation>%1 ist keine gewöhnliche Tabelle (sondern ein %2)</translation>
    </message>
    <message>
        <source>table %1 lacks the columns %2 (%3)</source>
        <translation>Tabelle %1 fehlen die Spalten %2 (%3)</translation>
    </message>
    <message>
        <source>table %1 cannot be read (%2)</source>
        <translation>Tabelle %1 kann nicht gelesen werden (%2)</translation>
    </message>
    <message>
        <source>table %1 holds %2 (row %3)</source>
        <translation>Tabelle %1 enthält %2 (Zeile %3)</translation>
    </message>
    <message>
        <source>the SQLite driver gives no handle to secure the connection</source>
        <translation>der SQLite-Treiber liefert kein Handle, um die Verbindung abzusichern</translation>
    </message>
    <message>
        <source>%1 (none in this report)</source>
        <translation>%1 (keine in diesem Bericht)</translation>
    </message>
    <message>
        <source>%1 (could not be read: %2)</source>
        <translation>%1 (nicht lesbar: %2)</translation>
    </message>
    <message>
        <source>Peak memory %1, at that instant</source>
        <translation>Spitzenspeicher %1, in diesem Moment</translation>
    </message>
    <message>
        <source>Optimizer state</source>
        <translation>Optimiererzustand</translation>
    </message>
    <message>
        <source>Memory over the iteration (no breakdown at the peak)</source>
        <translation>Speicher über die Iteration (keine Aufschlüsselung zur Spitze)</translation>
    </message>
    <message>
        <source>%1 (%2 bytes)</source>
        <translation>%1 (%2 Bytes)</translation>
    </message>
    <message>
        <source>Step %1: %2</source>
        <translation>Schritt %1: %2</translation>
    </message>
    <message>
        <source>Blocks: %1, of which %2 never freed in the recording</source>
        <translation>Blöcke: %1, davon %2 in der Aufzeichnung nie freigegeben</translation>
    </message>
    <message>
        <source>Device: %1 tasks, %2 CANN calls</source>
        <translation>Gerät: %1 Tasks, %2 CANN-Aufrufe</translation>
    </message>
    <message>
        <source>Schema version %1</source>
        <translation>Schemaversion %1</translation>
    </message>
    <message>
        <source>an SQLite database, but not a known report (it has no weight_entries, run_time_entries or timeline table)</source>
        <translation>eine SQLite-Datenbank, aber kein bekannter Bericht (ohne Tabelle weight_entries, run_time_entries oder eine Zeitleiste)</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <source>%1 ns</source>
        <translation>%1 ns</translation>
    </message>
    <message>
        <source>Sum of operations %1 ms</source>
        <translation>Summe der Operationen %1 ms</translation>
    </message>
    <message>
        <source>(no frame)</source>
        <translation>(kein Frame)</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <source>#</source>
        <translation>Nr.</translation>
    </message>
    <message>
        <source>s</source>
        <translation>s</translation>
    </message>
    <message>
        <source>µs</source>
        <translation>µs</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>KiB</source>
        <translation>KiB</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>TrainScope Manual</source>
        <translation>TrainScope-Handbuch</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Save Chart</source>
        <translation>Diagramm speichern</translation>
    </message>
    <message>
        <source>Save Chart as &amp;PNG…</source>
        <translation>Diagramm als &amp;PNG speichern …</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <source>Save Chart as &amp;SVG…</source>
        <translation>Diagramm als &amp;SVG speichern …</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG-Bilder (*.svg)</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>Gesamt</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>Mittel</translation>
    </message>
    <message>
        <source>Memory step %1: %2, with the memory meter (the run time report&apos;s iterations are timed without it)</source>
        <translation>Speicherschritt %1: %2, mit dem Speichermesser (die Iterationen des Laufzeitberichts werden ohne ihn gemessen)</translation>
    </message>
    <message>
        <source>… and %1 more steps; all %2: shortest %3, median %4, longest %5</source>
        <translation>… und %1 weitere Schritte; alle %2: kürzester %3, Median %4, längster %5</translation>
    </message>
    <message>
        <source>it is a folder, not a report file</source>
        <translation>es ist ein Ordner, keine Berichtsdatei</translation>
    </message>
    <message>
        <source>it is not a regular file (a FIFO, a device or a socket)</source>
        <translation>es ist keine gewöhnliche Datei (ein FIFO, ein Gerät oder ein Socket)</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>%1 samples/s</source>
        <translation>%1 Samples/s</translation>
    </message>
    <message>
        <source>no throughput predicted (the measured iteration time did not grow with the batch size)</source>
        <translation>kein Durchsatz vorhergesagt (die gemessene Iterationszeit wuchs nicht mit der Batchgröße)</translation>
    </message>
    <message>
        <source>PyTorch&apos;s allocator (PTA)</source>
        <translation>PyTorchs Allokator (PTA)</translation>
    </message>
    <message>
        <source>the graph engine (GE)</source>
        <translation>die Graph-Engine (GE)</translation>
    </message>
    <message>
        <source>PyTorch&apos;s allocator and the graph engine (PTA+GE)</source>
        <translation>PyTorchs Allokator und die Graph-Engine (PTA+GE)</translation>
    </message>
    <message>
        <source>the workspace</source>
        <translation>den Arbeitsbereich</translation>
    </message>
    <message>
        <source>Framework calls: %1 on one thread, spanning %2 (%3)</source>
        <translation>Framework-Aufrufe: %1 auf einem Thread, über %2 (%3)</translation>
    </message>
    <message>
        <source>Framework calls: %1 on %2 threads, spanning %3 (%4)</source>
        <translation>Framework-Aufrufe: %1 auf %2 Threads, über %3 (%4)</translation>
    </message>
    <message>
        <source>Memory of %1: peak allocated %2, peak reserved %3</source>
        <translation>Speicher für %1: höchstens belegt %2, höchstens reserviert %3</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>Optimierer</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>Vorhergesagt</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>Gemessen</translation>
    </message>
    <message>
        <source>Peak memory with each change</source>
        <translation>Spitzenspeicher mit jeder Änderung</translation>
    </message>
    <message>
        <source>operations: %1</source>
        <translation>Operationen: %1</translation>
    </message>
    <message>
        <source>collectives: %1</source>
        <translation>Kollektive: %1</translation>
    </message>
    <message>
        <source>task queue calls: %1</source>
        <translation>Aufrufe der Aufgabenwarteschlange: %1</translation>
    </message>
    <message>
        <source>Python trace calls: %1</source>
        <translation>Python-Trace-Aufrufe: %1</translation>
    </message>
    <message>
        <source>mstx marks: %1</source>
        <translation>mstx-Marken: %1</translation>
    </message>
    <message>
        <source>%1 calls: %2</source>
        <translation>%1-Aufrufe: %2</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>Kategorie</translation>
    </message>
    <message>
        <source>1 event</source>
        <translation>1 Ereignis</translation>
    </message>
    <message>
        <source>%1 events</source>
        <translation>%1 Ereignisse</translation>
    </message>
    <message>
        <source>The file holds no times: its events are placed in their order, so the spans below count events.</source>
        <translation>Die Datei enthält keine Zeiten: Ihre Ereignisse stehen in ihrer Reihenfolge, daher zählen die Spannen unten Ereignisse.</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>nicht aufgezeichnet</translation>
    </message>
    <message>
        <source>At the peak</source>
        <translation>Zur Spitze</translation>
    </message>
    <message>
        <source>After backward</source>
        <translation>Nach Rückwärts</translation>
    </message>
    <message>
        <source>Recomputed</source>
        <translation>Neu berechnet</translation>
    </message>
    <message>
        <source>Part</source>
        <translation>Teil</translation>
    </message>
    <message>
        <source>Call</source>
        <translation>Aufruf</translation>
    </message>
    <message>
        <source>Device call</source>
        <translation>Gerät Aufruf</translation>
    </message>
    <message>
        <source>Device fwd</source>
        <translation>Gerät vorw.</translation>
    </message>
    <message>
        <source>Device bwd</source>
        <translation>Gerät rückw.</translation>
    </message>
    <message>
        <source>CPU call</source>
        <translation>CPU Aufruf</translation>
    </message>
    <message>
        <source>CPU fwd</source>
        <translation>CPU vorw.</translation>
    </message>
    <message>
        <source>CPU bwd</source>
        <translation>CPU rückw.</translation>
    </message>
    <message>
        <source>Device total</source>
        <translation>Gerät gesamt</translation>
    </message>
    <message>
        <source>Device time of the listed step %1 ms</source>
        <translation>Gerätezeit des gezeigten Schritts %1 ms</translation>
    </message>
    <message>
        <source>Computation</source>
        <translation>Berechnung</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>Kommunikation</translation>
    </message>
    <message>
        <source>Copies and sets</source>
        <translation>Kopien und Füllungen</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>Leerlauf</translation>
    </message>
</context>
<context>
    <name>RunProgress</name>
    <message>
        <source>Memory: loading the model</source>
        <translation>Speicher: Modell wird geladen</translation>
    </message>
    <message>
        <source>Time: loading the model</source>
        <translation>Zeit: Modell wird geladen</translation>
    </message>
    <message>
        <source>Memory: warm-up</source>
        <translation>Speicher: Aufwärmen</translation>
    </message>
    <message>
        <source>Time: warm-up</source>
        <translation>Zeit: Aufwärmen</translation>
    </message>
    <message>
        <source>Memory: measuring</source>
        <translation>Speicher: Messung</translation>
    </message>
    <message>
        <source>Time: measuring</source>
        <translation>Zeit: Messung</translation>
    </message>
    <message>
        <source>, iteration %1 of %2</source>
        <translation>, Iteration %1 von %2</translation>
    </message>
    <message>
        <source> — about %1 s left</source>
        <translation> – noch etwa %1 s</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Training profile viewer</source>
        <translation>Betrachter für Trainingsprofile</translation>
    </message>
    <message>
        <source>Reports to open</source>
        <translation>Zu öffnende Berichte</translation>
    </message>
    <message>
        <source>Save the window to FILE.png once shown, then quit</source>
        <translation>Das Fenster nach dem Anzeigen als FILE.png speichern und beenden</translation>
    </message>
    <message>
        <source>Select row ROW of the tab&apos;s first table</source>
        <translation>Zeile ROW der ersten Tabelle des Reiters auswählen</translation>
    </message>
    <message>
        <source>Profile the built-in example at once (what the first-launch button does)</source>
        <translation>Das eingebaute Beispiel sofort profilieren (wie die Schaltfläche beim ersten Start)</translation>
    </message>
    <message>
        <source>Use the THEME (system, light, dark) instead of the one in Settings</source>
        <translation>Das Farbschema THEME (system, light, dark) statt des in den Einstellungen gewählten verwenden</translation>
    </message>
    <message>
        <source>Compare the opened run with the run of REPORT (File › Compare With…)</source>
        <translation>Den geöffneten Lauf mit dem Lauf von REPORT vergleichen (Datei › Vergleichen mit …)</translation>
    </message>
    <message>
        <source>Show the tab NAME (overview, memory, time, modules, lines, compiled, advice, timeline, summary, ranks)</source>
        <translation>Den Reiter NAME zeigen (overview, memory, time, modules, lines, compiled, advice, timeline, summary, ranks)</translation>
    </message>
</context>
<context>
    <name>trainscope</name>
    <message>
        <source>Transformer MLP block: Linear(d, 4d), activation, Linear(4d, d), dropout</source>
        <translation>MLP-Block eines Transformers: Linear(d, 4d), Aktivierung, Linear(4d, d), Dropout</translation>
    </message>
    <message>
        <source>model width d</source>
        <translation>Modellbreite d</translation>
    </message>
    <message>
        <source>activation</source>
        <translation>Aktivierungsfunktion</translation>
    </message>
    <message>
        <source>dropout probability after lin_1 (0: none)</source>
        <translation>Dropout-Wahrscheinlichkeit nach lin_1 (0: keins)</translation>
    </message>
    <message>
        <source>GPT-style decoder: token and position embeddings, n_layers pre-norm blocks of causal self-attention and MLP, final norm, LM head</source>
        <translation>Decoder im GPT-Stil: Token- und Positions-Embeddings, n_layers Pre-Norm-Blöcke aus kausaler Self-Attention und MLP, abschließende Normierung, LM-Kopf</translation>
    </message>
    <message>
        <source>vocabulary size</source>
        <translation>Größe des Vokabulars</translation>
    </message>
    <message>
        <source>attention heads (d_model must be a multiple)</source>
        <translation>Attention-Köpfe (d_model muss ein Vielfaches sein)</translation>
    </message>
    <message>
        <source>sequence length (position embeddings)</source>
        <translation>Sequenzlänge (Positions-Embeddings)</translation>
    </message>
    <message>
        <source>decoder blocks</source>
        <translation>Decoder-Blöcke</translation>
    </message>
    <message>
        <source>MLP activation</source>
        <translation>Aktivierungsfunktion des MLP</translation>
    </message>
    <message>
        <source>ResNet-style image classifier with basic blocks in 4 stages (widths w, 2w, 4w, 8w)</source>
        <translation>Bildklassifikator im ResNet-Stil mit Basisblöcken in 4 Stufen (Breiten w, 2w, 4w, 8w)</translation>
    </message>
    <message>
        <source>layers: 2 + 8n, n basic blocks per stage</source>
        <translation>Schichten: 2 + 8n, n Basisblöcke je Stufe</translation>
    </message>
    <message>
        <source>channels of the first stage</source>
        <translation>Kanäle der ersten Stufe</translation>
    </message>
    <message>
        <source>height and width of the input images</source>
        <translation>Höhe und Breite der Eingabebilder</translation>
    </message>
    <message>
        <source>output classes</source>
        <translation>Ausgabeklassen</translation>
    </message>
    <message>
        <source>a number in [0, 1)</source>
        <translation>eine Zahl in [0, 1)</translation>
    </message>
    <message>
        <source>a valid value</source>
        <translation>ein gültiger Wert</translation>
    </message>
    <message>
        <source>a positive integer (at most 2147483647)</source>
        <translation>eine positive ganze Zahl (höchstens 2147483647)</translation>
    </message>
    <message>
        <source>attention: matmul and softmax, or fused scaled_dot_product_attention (sdpa: LibTorch 2.0 or later)</source>
        <translation>Attention: matmul und softmax oder das fusionierte scaled_dot_product_attention (sdpa: ab LibTorch 2.0)</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::AdvicePage</name>
    <message>
        <source>the prediction was exact</source>
        <translation>die Vorhersage war genau</translation>
    </message>
    <message>
        <source>the prediction was off by %1 %</source>
        <translation>die Vorhersage lag um %1 % daneben</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>%1 wird gelesen …</translation>
    </message>
    <message>
        <source>What if</source>
        <translation>Was wäre, wenn</translation>
    </message>
    <message>
        <source>Peak
predicted</source>
        <translation>Spitze
vorhergesagt</translation>
    </message>
    <message>
        <source>Peak
measured</source>
        <translation>Spitze
gemessen</translation>
    </message>
    <message>
        <source>Activations
predicted</source>
        <translation>Aktivierungen
vorhergesagt</translation>
    </message>
    <message>
        <source>Activations
measured</source>
        <translation>Aktivierungen
gemessen</translation>
    </message>
    <message>
        <source>Step
predicted</source>
        <translation>Schritt
vorhergesagt</translation>
    </message>
    <message>
        <source>Step
measured</source>
        <translation>Schritt
gemessen</translation>
    </message>
    <message>
        <source>Cannot read the what-ifs: %1</source>
        <translation>Die Was-wäre-wenn-Fälle lassen sich nicht lesen: %1</translation>
    </message>
    <message>
        <source>The step as it is: peak %1, activations %2, step %3. Each what-if below was predicted from what the step&apos;s forward saved for backward; a measured figure is the step run with the change, on a copy of the model. Click one to see its module.</source>
        <translation>Der Schritt, wie er ist: Spitze %1, Aktivierungen %2, Schritt %3. Jeder Fall unten wurde aus dem vorhergesagt, was der Vorwärtslauf des Schritts für den Rückwärtslauf gespeichert hat; ein gemessener Wert ist der Schritt mit der Änderung, an einer Kopie des Modells. Klicken Sie einen an, um sein Modul zu sehen.</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1 bei %2</translation>
    </message>
    <message>
        <source>not run</source>
        <translation>nicht ausgeführt</translation>
    </message>
    <message>
        <source>checkpoint each block</source>
        <translation>jeden Block checkpointen</translation>
    </message>
    <message>
        <source>every such module</source>
        <translation>jedem solchen Modul</translation>
    </message>
    <message>
        <source>the optimizer</source>
        <translation>dem Optimierer</translation>
    </message>
    <message>
        <source>the inputs</source>
        <translation>den Eingaben</translation>
    </message>
    <message>
        <source>the gradients</source>
        <translation>den Gradienten</translation>
    </message>
    <message>
        <source>the model</source>
        <translation>dem Modell</translation>
    </message>
    <message>
        <source>bfloat16 autocast of the forward</source>
        <translation>bfloat16-Autocast des Vorwärtslaufs</translation>
    </message>
    <message>
        <source>checkpoint the fewest blocks that fit the budget: %1</source>
        <translation>die wenigsten Blöcke checkpointen, mit denen das Budget reicht: %1</translation>
    </message>
    <message>
        <source>%1 (worse)</source>
        <translation>%1 (schlechter)</translation>
    </message>
    <message>
        <source>Not advised: as measured, it makes the step worse than it is (peak %1, activations %2).</source>
        <translation>Nicht empfohlen: gemessen macht es den Schritt schlechter, als er ist (Spitze %1, Aktivierungen %2).</translation>
    </message>
    <message>
        <source>Not advised: as predicted, it makes the step worse than it is (peak %1, activations %2).</source>
        <translation>Nicht empfohlen: laut Vorhersage macht es den Schritt schlechter, als er ist (Spitze %1, Aktivierungen %2).</translation>
    </message>
    <message>
        <source>Step ratio
timed in turns</source>
        <translation>Zeitverhältnis
im Wechsel</translation>
    </message>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <source>%1 (noise)</source>
        <translation>%1 (Rauschen)</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>Not timed in turns with the step as it is (a report written before TrainScope did).</source>
        <translation>Nicht abwechselnd mit dem Schritt, wie er ist, gemessen (ein Bericht von vor dieser Messung in TrainScope).</translation>
    </message>
    <message>
        <source>The step with this change took %1 the time of the step as it is, timed in turns in the same process: from %2 to %3 over %4 pairs.</source>
        <translation>Der Schritt mit dieser Änderung brauchte das %1 der Zeit des Schritts, wie er ist, abwechselnd im selben Prozess gemessen: von %2 bis %3 über %4 Paare.</translation>
    </message>
    <message>
        <source>No difference is readable: timed in turns with the step as it is, the step with this change took from %2 to %3 its time over %4 pairs (median %1).</source>
        <translation>Kein Unterschied lesbar: abwechselnd mit dem Schritt, wie er ist, gemessen, brauchte der Schritt mit dieser Änderung das %2 bis %3 seiner Zeit über %4 Paare (Median %1).</translation>
    </message>
    <message>
        <source>batch size %1</source>
        <translation>Batchgröße %1</translation>
    </message>
    <message>
        <source>batch size %1 (the first above the budget)</source>
        <translation>Batchgröße %1 (die erste über dem Budget)</translation>
    </message>
    <message>
        <source>batch size %1 (no batch fits the budget)</source>
        <translation>Batchgröße %1 (keine Batchgröße passt ins Budget)</translation>
    </message>
    <message>
        <source>the largest batch size within the budget</source>
        <translation>die größte Batchgröße im Budget</translation>
    </message>
    <message>
        <source>not predicted</source>
        <translation>nicht vorhergesagt</translation>
    </message>
    <message>
        <source>Not predicted: %1.</source>
        <translation>Nicht vorhergesagt: %1.</translation>
    </message>
    <message>
        <source>The step time is not predicted for this change: it changes the collectives between the ranks.</source>
        <translation>Die Schrittzeit wird für diese Änderung nicht vorhergesagt: Sie ändert die kollektiven Operationen zwischen den Rängen.</translation>
    </message>
    <message>
        <source>the job over %1 ranks</source>
        <translation>der Job über %1 Ränge</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rang %1</translation>
    </message>
    <message>
        <source>optimizer state sharded over %1 ranks (ZeRO-1)</source>
        <translation>Optimiererzustand über %1 Ränge verteilt (ZeRO-1)</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::BatchSizePage</name>
    <message>
        <source>Reading %1…</source>
        <translation>%1 wird gelesen …</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Batchgröße</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>Spitze</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>Aktivierungen</translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation>Iteration</translation>
    </message>
    <message>
        <source>Samples/s</source>
        <translation>Samples/s</translation>
    </message>
    <message>
        <source>Batch size:</source>
        <translation>Batchgröße:</translation>
    </message>
    <message>
        <source>This sweep report cannot be read: %1</source>
        <translation>Dieser Sweep-Bericht lässt sich nicht lesen: %1</translation>
    </message>
    <message>
        <source> — over the budget</source>
        <translation> – über dem Budget</translation>
    </message>
    <message>
        <source>Extrapolated: outside the measured batch sizes the prediction assumes that memory and time keep growing on the same line.</source>
        <translation>Extrapoliert: Außerhalb der gemessenen Batchgrößen nimmt die Vorhersage an, dass Speicher und Zeit auf derselben Geraden weiterwachsen.</translation>
    </message>
    <message>
        <source>Within the measured batch sizes.</source>
        <translation>Innerhalb der gemessenen Batchgrößen.</translation>
    </message>
    <message>
        <source>Peak memory</source>
        <translation>Spitzenspeicher</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>Durchsatz</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>Gemessen</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>Vorhergesagt</translation>
    </message>
    <message>
        <source>Verified</source>
        <translation>Überprüft</translation>
    </message>
    <message>
        <source>Budget (%1)</source>
        <translation>Budget (%1)</translation>
    </message>
    <message>
        <source>Chosen batch</source>
        <translation>Gewählter Batch</translation>
    </message>
    <message>
        <source> (out of memory)</source>
        <translation> (Speicher erschöpft)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: measured at batch sizes %2. Memory budget %3 (%4).</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: gemessen bei Batchgrößen %2. Speicherbudget %3 (%4).</translation>
    </message>
    <message>
        <source>, extrapolated</source>
        <translation>, extrapoliert</translation>
    </message>
    <message>
        <source>Not even a batch of 1 is predicted to fit the budget.</source>
        <translation>Laut Vorhersage passt nicht einmal ein Batch von 1 ins Budget.</translation>
    </message>
    <message>
        <source>Fit: peak R² %1 (largest residual %2); iteration time R² %3 (largest residual %4 ms).</source>
        <translation>Anpassung: Spitze R² %1 (größtes Residuum %2); Iterationszeit R² %3 (größtes Residuum %4 ms).</translation>
    </message>
    <message>
        <source>Verified: batch %1 ran out of memory.</source>
        <translation>Überprüft: Batch %1 hat den Speicher erschöpft.</translation>
    </message>
    <message>
        <source>out of memory</source>
        <translation>Speicher erschöpft</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>gemessen</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>Extrapolated</source>
        <translation>Extrapoliert</translation>
    </message>
    <message>
        <source>Batch size (logarithmic)</source>
        <translation>Batchgröße (logarithmisch)</translation>
    </message>
    <message>
        <source>Peak (%1, logarithmic)</source>
        <translation>Spitze (%1, logarithmisch)</translation>
    </message>
    <message>
        <source>Verify by Running</source>
        <translation>Durch Ausführen prüfen</translation>
    </message>
    <message>
        <source>Could not verify: %1</source>
        <translation>Prüfung nicht möglich: %1</translation>
    </message>
    <message>
        <source>Verify Batch %1</source>
        <translation>Batch %1 prüfen</translation>
    </message>
    <message>
        <source>Batch %1 is predicted not to fit the budget</source>
        <translation>Batch %1 passt laut Vorhersage nicht ins Budget</translation>
    </message>
    <message>
        <source>Profile batch %1 as the sweep profiled its sizes, and compare the measurement with the prediction</source>
        <translation>Batch %1 so profilieren, wie der Sweep seine Größen profiliert hat, und die Messung mit der Vorhersage vergleichen</translation>
    </message>
    <message>
        <source>Batch %1: predicted peak %2 (%3% of the %4 budget), %5</source>
        <translation>Batch %1: vorhergesagte Spitze %2 (%3 % des Budgets von %4), %5</translation>
    </message>
    <message>
        <source>Largest batch within it: &lt;b&gt;%1&lt;/b&gt; (predicted peak %2, %3)%4.</source>
        <translation>Größter Batch darin: &lt;b&gt;%1&lt;/b&gt; (vorhergesagte Spitze %2, %3)%4.</translation>
    </message>
    <message>
        <source>Verified at batch %1: peak %2 (prediction off by %3%), %4 samples/s%5.</source>
        <translation>Geprüft bei Batch %1: Spitze %2 (Vorhersage weicht um %3 % ab), %4 Samples/s%5.</translation>
    </message>
    <message>
        <source> (off by %1%)</source>
        <translation> (weicht um %1 % ab)</translation>
    </message>
    <message>
        <source>Verifying batch %1 was cancelled: the report is as it was.</source>
        <translation>Die Prüfung von Batch %1 wurde abgebrochen: der Bericht ist unverändert.</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen …</translation>
    </message>
    <message>
        <source>Cancel Verifying</source>
        <translation>Prüfung abbrechen</translation>
    </message>
    <message>
        <source>Verifying batch %1: starting the run… %2 s</source>
        <translation>Batch %1 wird geprüft: der Lauf startet … %2 s</translation>
    </message>
    <message>
        <source>Verifying batch %1: %2… %3 s</source>
        <translation>Batch %1 wird geprüft: %2 … %3 s</translation>
    </message>
    <message>
        <source>Peak (%1)</source>
        <translation>Spitze (%1)</translation>
    </message>
    <message>
        <source>verified: out of memory</source>
        <translation>geprüft: Speicher erschöpft</translation>
    </message>
    <message>
        <source>verified</source>
        <translation>geprüft</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::ChartSlot</name>
    <message>
        <source>Reading the largest entries…</source>
        <translation>Die größten Einträge werden gelesen…</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::CompareModel</name>
    <message>
        <source>Iteration (wall time, peak memory)</source>
        <translation>Iteration (Gesamtzeit, Spitzenspeicher)</translation>
    </message>
    <message>
        <source>Forward pass (activations)</source>
        <translation>Vorwärtsdurchlauf (Aktivierungen)</translation>
    </message>
    <message>
        <source>Backward pass (gradients)</source>
        <translation>Rückwärtsdurchlauf (Gradienten)</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>Gewichte</translation>
    </message>
    <message>
        <source>At the peak: weights</source>
        <translation>Zur Spitze: Gewichte</translation>
    </message>
    <message>
        <source>At the peak: gradients</source>
        <translation>Zur Spitze: Gradienten</translation>
    </message>
    <message>
        <source>At the peak: optimizer state</source>
        <translation>Zur Spitze: Optimiererzustand</translation>
    </message>
    <message>
        <source>At the peak: activations</source>
        <translation>Zur Spitze: Aktivierungen</translation>
    </message>
    <message>
        <source>At the peak: other</source>
        <translation>Zur Spitze: Sonstiges</translation>
    </message>
    <message>
        <source>Iteration (wall time)</source>
        <translation>Iteration (Gesamtzeit)</translation>
    </message>
    <message>
        <source>Forward time</source>
        <translation>Vorwärtszeit</translation>
    </message>
    <message>
        <source>Backward time</source>
        <translation>Rückwärtszeit</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>Aktivierungen</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>Gradienten</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>Spitze</translation>
    </message>
    <message>
        <source>Weights at the peak</source>
        <translation>Gewichte zur Spitze</translation>
    </message>
    <message>
        <source>Gradients at the peak</source>
        <translation>Gradienten zur Spitze</translation>
    </message>
    <message>
        <source>Optimizer state at the peak</source>
        <translation>Optimiererzustand zur Spitze</translation>
    </message>
    <message>
        <source>Activations at the peak</source>
        <translation>Aktivierungen zur Spitze</translation>
    </message>
    <message>
        <source>Other at the peak</source>
        <translation>Sonstiges zur Spitze</translation>
    </message>
    <message>
        <source>new</source>
        <translation>neu</translation>
    </message>
    <message>
        <source>Totals</source>
        <translation>Summen</translation>
    </message>
    <message numerus="yes">
        <source>Modules (%n)</source>
        <translation>
            <numerusform>Module (%n)</numerusform>
            <numerusform>Module (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Operations (%n)</source>
        <translation>
            <numerusform>Operationen (%n)</numerusform>
            <numerusform>Operationen (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Parameters (%n)</source>
        <translation>
            <numerusform>Parameter (%n)</numerusform>
            <numerusform>Parameter (%n)</numerusform>
        </translation>
    </message>
    <message>
        <source>within noise</source>
        <translation>im Rauschen</translation>
    </message>
    <message>
        <source>Fastest to slowest measured iteration: base %1 to %2, new %3 to %4</source>
        <translation>Schnellste bis langsamste gemessene Iteration: Basis %1 bis %2, neu %3 bis %4</translation>
    </message>
    <message>
        <source>added</source>
        <translation>hinzugekommen</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>entfallen</translation>
    </message>
    <message>
        <source>Forward + backward time (for the iteration: its wall time). A change counts when the runs&apos; fastest and slowest iterations do not overlap.</source>
        <translation>Vorwärts- + Rückwärtszeit (für die Iteration: ihre Gesamtzeit). Eine Änderung zählt, wenn sich die schnellsten und langsamsten Iterationen der Läufe nicht überschneiden.</translation>
    </message>
    <message>
        <source>Activations + weights + gradients (for the iteration: the peak). Memory is exact: every change counts.</source>
        <translation>Aktivierungen + Gewichte + Gradienten (für die Iteration: die Spitze). Speicher ist exakt: jede Änderung zählt.</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>Eintrag</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Time: base</source>
        <translation>Zeit: Basis</translation>
    </message>
    <message>
        <source>Δ time</source>
        <translation>Δ Zeit</translation>
    </message>
    <message>
        <source>Δ%</source>
        <translation>Δ%</translation>
    </message>
    <message>
        <source>Memory: base</source>
        <translation>Speicher: Basis</translation>
    </message>
    <message>
        <source>Δ memory</source>
        <translation>Δ Speicher</translation>
    </message>
    <message>
        <source>Within noise: the two runs&apos; timed iterations overlap (or the change is a few microseconds), so it counts as neither an increase nor a decrease</source>
        <translation>Im Rauschen: Die gemessenen Iterationen der beiden Läufe überschneiden sich (oder die Änderung beträgt wenige Mikrosekunden), daher zählt sie weder als Zunahme noch als Abnahme</translation>
    </message>
    <message>
        <source>After the backward pass</source>
        <translation>Nach dem Rückwärtsdurchlauf</translation>
    </message>
    <message>
        <source>Optimizer step</source>
        <translation>Optimiererschritt</translation>
    </message>
    <message>
        <source>Time after backward</source>
        <translation>Zeit nach Rückwärts</translation>
    </message>
    <message>
        <source>Optimizer time</source>
        <translation>Optimiererzeit</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::ComparePage</name>
    <message>
        <source>Base: %1</source>
        <translation>Basis: %1</translation>
    </message>
    <message>
        <source>New: %1</source>
        <translation>Neu: %1</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>Wird verglichen …</translation>
    </message>
    <message>
        <source>Find a module, operation or parameter</source>
        <translation>Modul, Operation oder Parameter suchen</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelltext</translation>
    </message>
    <message>
        <source>No project frames on this side.</source>
        <translation>Auf dieser Seite keine Projekt-Frames.</translation>
    </message>
    <message>
        <source>These runs cannot be compared: %1</source>
        <translation>Diese Läufe lassen sich nicht vergleichen: %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Base&lt;/b&gt; %1%2 &amp;nbsp; &lt;b&gt;New&lt;/b&gt; %3%4</source>
        <translation>&lt;b&gt;Basis&lt;/b&gt; %1%2 &amp;nbsp; &lt;b&gt;Neu&lt;/b&gt; %3%4</translation>
    </message>
    <message>
        <source>Operations: %1 matched, %2 added, %3 removed. %4 increases beyond noise.</source>
        <translation>Operationen: %1 zugeordnet, %2 hinzugekommen, %3 entfallen. %4 Zunahmen über dem Rauschen.</translation>
    </message>
    <message>
        <source>Base</source>
        <translation>Basis</translation>
    </message>
    <message>
        <source>New</source>
        <translation>Neu</translation>
    </message>
    <message>
        <source>Time since the first allocation (ms)</source>
        <translation>Zeit seit der ersten Allokation (ms)</translation>
    </message>
    <message>
        <source>Allocated (%1)</source>
        <translation>Belegt (%1)</translation>
    </message>
    <message>
        <source>Memory over one iteration</source>
        <translation>Speicher über eine Iteration</translation>
    </message>
    <message>
        <source>Memory over Time</source>
        <translation>Speicher über die Zeit</translation>
    </message>
    <message>
        <source>Red: an increase beyond the runs&apos; noise (the spread of their timed iterations); green: a decrease beyond it; grey: a change within it.</source>
        <translation>Rot: eine Zunahme über das Rauschen der Läufe hinaus (die Streuung ihrer gemessenen Iterationen); grün: eine Abnahme darüber hinaus; grau: eine Änderung darin.</translation>
    </message>
    <message>
        <source>%1 is in %2, the folder this run was profiled in. To show it, open this run and choose Show Files, or set its project root (File › Set Project Root…).</source>
        <translation>%1 liegt in %2, dem Ordner, in dem dieser Lauf profiliert wurde. Um die Datei anzuzeigen, öffnen Sie diesen Lauf und wählen Sie „Dateien anzeigen“, oder legen Sie seinen Projektordner fest (Datei › Projektordner festlegen …).</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::CompiledPage</name>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Compile ID</source>
        <translation>Kompilier-ID</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>Graph</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Wo</translation>
    </message>
    <message>
        <source>Time (s)</source>
        <translation>Zeit (s)</translation>
    </message>
    <message>
        <source>Graph break</source>
        <translation>Graphbruch</translation>
    </message>
    <message>
        <source>Recompiled because</source>
        <translation>Neu kompiliert, weil</translation>
    </message>
    <message numerus="yes">
        <source>%n compilations by torch.compile, %1 s; graph breaks: %2, recompilations: %3</source>
        <translation>
            <numerusform>%n Kompilierung durch torch.compile, %1 s; Graphbrüche: %2, Neukompilierungen: %3</numerusform>
            <numerusform>%n Kompilierungen durch torch.compile, %1 s; Graphbrüche: %2, Neukompilierungen: %3</numerusform>
        </translation>
    </message>
    <message>
        <source>Kernels of compiled regions: %1, %2 ms (forward %3 ms, backward %4 ms); %5% of their time on a module and a line of the project</source>
        <translation>Kernels kompilierter Regionen: %1, %2 ms (vorwärts %3 ms, rückwärts %4 ms); %5 % ihrer Zeit auf einem Modul und einer Zeile des Projekts</translation>
    </message>
    <message>
        <source>%1 ms without a line: %2</source>
        <translation>%1 ms ohne Zeile: %2</translation>
    </message>
    <message>
        <source>warm-up</source>
        <translation>Aufwärmen</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>rückwärts</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>vorwärts</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::EntryTableView</name>
    <message>
        <source>&amp;Copy Rows</source>
        <translation>Zeilen &amp;kopieren</translation>
    </message>
    <message>
        <source>&amp;Filter to “%1”</source>
        <translation>Auf „%1“ &amp;filtern</translation>
    </message>
    <message>
        <source>&amp;Export Table as CSV…</source>
        <translation>Tabelle als &amp;CSV exportieren …</translation>
    </message>
    <message>
        <source>There is no table to export.</source>
        <translation>Es gibt keine Tabelle zum Exportieren.</translation>
    </message>
    <message>
        <source>The table could not be read in full: %1</source>
        <translation>Die Tabelle konnte nicht vollständig gelesen werden: %1</translation>
    </message>
    <message>
        <source>Export Table</source>
        <translation>Tabelle exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::IcicleChart</name>
    <message>
        <source>%1
Time: %2 %3 (%4 %), forward %5, backward %6
Activations: %7 %8 (%9 %)
Weights: %10 %11 (%12 %)</source>
        <translation>%1
Zeit: %2 %3 (%4 %), vorwärts %5, rückwärts %6
Aktivierungen: %7 %8 (%9 %)
Gewichte: %10 %11 (%12 %)</translation>
    </message>
    <message>
        <source>(model)</source>
        <translation>(Modell)</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::LiveBlocksView</name>
    <message>
        <source>Click the memory curve, or Peak, to list the blocks alive then.</source>
        <translation>Klicken Sie auf die Speicherkurve oder auf „Spitze“, um die dann belegten Blöcke aufzulisten.</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation>Blöcke</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>Operation</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>Modul</translation>
    </message>
    <message>
        <source>Allocated at</source>
        <translation>Belegt bei</translation>
    </message>
    <message>
        <source>Freed at</source>
        <translation>Freigegeben bei</translation>
    </message>
    <message>
        <source>%1 (rank %2)</source>
        <translation>%1 (Rang %2)</translation>
    </message>
    <message>
        <source>never freed</source>
        <translation>nie freigegeben</translation>
    </message>
    <message>
        <source>… %1 more</source>
        <translation>… %1 weitere</translation>
    </message>
    <message>
        <source>Alive at %1: %2 allocated in all; %3 of it in %4 blocks allocated during the iteration, largest first</source>
        <translation>Belegt bei %1: insgesamt %2; davon %3 in %4 während der Iteration belegten Blöcken, größte zuerst</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>Kategorie</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::MainWindow</name>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>TrainScope</source>
        <translation>TrainScope</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;New Profile…</source>
        <translation>&amp;Neues Profil …</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>Ö&amp;ffnen …</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>Schl&amp;ießen</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Einstellungen …</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>Profile finished.</source>
        <translation>Profilierung abgeschlossen.</translation>
    </message>
    <message>
        <source>The run failed.</source>
        <translation>Der Lauf ist fehlgeschlagen.</translation>
    </message>
    <message>
        <source>The profiling run failed: %1</source>
        <translation>Der Profilierungslauf ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The run was cancelled; no report was written.</source>
        <translation>Der Lauf wurde abgebrochen; es wurde kein Bericht geschrieben.</translation>
    </message>
    <message>
        <source>A run is in progress; cancel it or wait for it to finish.</source>
        <translation>Ein Lauf ist im Gange; brechen Sie ihn ab oder warten Sie, bis er fertig ist.</translation>
    </message>
    <message>
        <source>Starting %1…</source>
        <translation>%1 wird gestartet …</translation>
    </message>
    <message>
        <source>Open Report</source>
        <translation>Bericht öffnen</translation>
    </message>
    <message>
        <source>Reports (*.sqlite *.db);;All files (*)</source>
        <translation>Berichte (*.sqlite *.db);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>%1 — TrainScope</source>
        <translation>%1 – TrainScope</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>%1 geöffnet</translation>
    </message>
    <message>
        <source>Project Root</source>
        <translation>Projektordner</translation>
    </message>
    <message>
        <source>Project root: %1</source>
        <translation>Projektordner: %1</translation>
    </message>
    <message>
        <source>No recent reports</source>
        <translation>Keine zuletzt geöffneten Berichte</translation>
    </message>
    <message>
        <source>Clear List</source>
        <translation>Liste leeren</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>Zeitleiste</translation>
    </message>
    <message>
        <source>Summary of %1</source>
        <translation>Zusammenfassung von %1</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>%1 wird geöffnet…</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>Übersicht</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About TrainScope</source>
        <translation>&amp;Über TrainScope</translation>
    </message>
    <message>
        <source>&lt;h3&gt;TrainScope %1&lt;/h3&gt;&lt;p&gt;Where the time and the memory of a PyTorch training iteration go.&lt;/p&gt;&lt;p&gt;Licensed under the Apache License, Version 2.0.&lt;/p&gt;&lt;p&gt;LibTorch %2 · Qt %3 · SQLite %4&lt;/p&gt;</source>
        <translation>&lt;h3&gt;TrainScope %1&lt;/h3&gt;&lt;p&gt;Wohin Zeit und Speicher einer PyTorch-Trainingsiteration gehen.&lt;/p&gt;&lt;p&gt;Lizenziert unter der Apache-Lizenz, Version 2.0.&lt;/p&gt;&lt;p&gt;LibTorch %2 · Qt %3 · SQLite %4&lt;/p&gt;</translation>
    </message>
    <message>
        <source>About TrainScope</source>
        <translation>Über TrainScope</translation>
    </message>
    <message>
        <source>Set &amp;Project Root…</source>
        <translation>Projekt&amp;ordner festlegen …</translation>
    </message>
    <message>
        <source>&amp;Export Table as CSV…</source>
        <translation>Tabelle als &amp;CSV exportieren …</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>The tab in front has no table to export.</source>
        <translation>Der vordere Reiter hat keine Tabelle zum Exportieren.</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>&amp;Suchen …</translation>
    </message>
    <message>
        <source>The tab in front has no find field.</source>
        <translation>Der vordere Reiter hat kein Suchfeld.</translation>
    </message>
    <message>
        <source>&amp;Next Tab</source>
        <translation>&amp;Nächster Reiter</translation>
    </message>
    <message>
        <source>&amp;Previous Tab</source>
        <translation>&amp;Vorheriger Reiter</translation>
    </message>
    <message>
        <source>TrainScope &amp;Manual</source>
        <translation>TrainScope-&amp;Handbuch</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>Hauptleiste</translation>
    </message>
    <message>
        <source>Co&amp;mpare With…</source>
        <translation>&amp;Vergleichen mit …</translation>
    </message>
    <message>
        <source>Ctrl+D</source>
        <translation>Ctrl+D</translation>
    </message>
    <message>
        <source>Open a run first: it is the base of the comparison.</source>
        <translation>Zuerst einen Lauf öffnen: Er ist die Basis des Vergleichs.</translation>
    </message>
    <message>
        <source>Compare With</source>
        <translation>Vergleichen mit</translation>
    </message>
    <message>
        <source>Compare: %1 with %2</source>
        <translation>Vergleich: %1 mit %2</translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation>%1 öffnen</translation>
    </message>
    <message>
        <source>Compare With the Open Run</source>
        <translation>Mit dem geöffneten Lauf vergleichen</translation>
    </message>
    <message>
        <source>Batch Size: %1</source>
        <translation>Batchgröße: %1</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>Ränge</translation>
    </message>
    <message>
        <source>Summary of a Rank</source>
        <translation>Zusammenfassung eines Rangs</translation>
    </message>
    <message>
        <source>Overview of a Rank</source>
        <translation>Übersicht eines Rangs</translation>
    </message>
    <message>
        <source>Advice: %1</source>
        <translation>Ratschläge: %1</translation>
    </message>
    <message>
        <source>Advice</source>
        <translation>Ratschläge</translation>
    </message>
    <message>
        <source>Reports, traces and snapshots (*.sqlite *.db *.json *.json.gz *.pickle *.pkl);;Reports (*.sqlite *.db);;torch.profiler traces (*.json *.json.gz);;Memory snapshots (*.pickle *.pkl);;All files (*)</source>
        <translation>Berichte, Traces und Snapshots (*.sqlite *.db *.json *.json.gz *.pickle *.pkl);;Berichte (*.sqlite *.db);;torch.profiler-Traces (*.json *.json.gz);;Speicher-Snapshots (*.pickle *.pkl);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>%1 wird importiert…</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Import</translation>
    </message>
    <message>
        <source>Import of %1 cancelled.</source>
        <translation>Import von %1 abgebrochen.</translation>
    </message>
    <message>
        <source>%1 is a memory snapshot: it holds no operation times, so there is no Time tab.</source>
        <translation>%1 ist ein Speicher-Snapshot: Er enthält keine Operationszeiten, daher gibt es keinen Tab „Zeit“.</translation>
    </message>
    <message>
        <source>%1 has no memory events (recorded without profile_memory=True), so there is no Memory tab.</source>
        <translation>%1 enthält keine Speicherereignisse (ohne profile_memory=True aufgezeichnet), daher gibt es keinen Tab „Speicher“.</translation>
    </message>
    <message>
        <source>Open &amp;Folder of Traces…</source>
        <translation>Ordner mit &amp;Profiler-Traces öffnen …</translation>
    </message>
    <message>
        <source>Open Folder of Traces</source>
        <translation>Ordner mit Profiler-Traces öffnen</translation>
    </message>
    <message numerus="yes">
        <source>%n traces</source>
        <translation>
            <numerusform>%n Profiler-Trace</numerusform>
            <numerusform>%n Profiler-Traces</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>trainscope::ui::MemoryCurveWidget</name>
    <message>
        <source>Click or drag to list the blocks alive at that moment</source>
        <translation>Klicken oder ziehen, um die in diesem Moment belegten Blöcke aufzulisten</translation>
    </message>
    <message>
        <source>allocated (filled)
reserved (line)
active (dotted)</source>
        <translation>belegt (gefüllt)
reserviert (Linie)
aktiv (gepunktet)</translation>
    </message>
    <message>
        <source>peak %1</source>
        <translation>Spitze %1</translation>
    </message>
    <message>
        <source>rank %1: peak %2</source>
        <translation>Rang %1: Spitze %2</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::MemoryPage</name>
    <message>
        <source>Largest weights</source>
        <translation>Größte Gewichte</translation>
    </message>
    <message>
        <source>Largest activations</source>
        <translation>Größte Aktivierungen</translation>
    </message>
    <message>
        <source>%1 — “%2”</source>
        <translation>%1 — „%2“</translation>
    </message>
    <message>
        <source>Largest blocks alive at the peak</source>
        <translation>Größte zur Spitze belegte Blöcke</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::ModulesModel</name>
    <message>
        <source>%1 of its %2 operations are listed</source>
        <translation>%1 seiner %2 Operationen sind aufgeführt</translation>
    </message>
    <message>
        <source>%1  (%2 %)</source>
        <translation>%1  (%2 %)</translation>
    </message>
    <message>
        <source>The model itself, and code outside its submodules</source>
        <translation>Das Modell selbst und Code außerhalb seiner Untermodule</translation>
    </message>
    <message>
        <source>(model)</source>
        <translation>(Modell)</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>Modul</translation>
    </message>
    <message>
        <source>#</source>
        <translation>Nr.</translation>
    </message>
    <message>
        <source>Forward (%1)</source>
        <translation>Vorwärts (%1)</translation>
    </message>
    <message>
        <source>Backward (%1)</source>
        <translation>Rückwärts (%1)</translation>
    </message>
    <message>
        <source>Total (%1)</source>
        <translation>Gesamt (%1)</translation>
    </message>
    <message>
        <source>Activations (%1)</source>
        <translation>Aktivierungen (%1)</translation>
    </message>
    <message>
        <source>Weights (%1)</source>
        <translation>Gewichte (%1)</translation>
    </message>
    <message>
        <source>Gradients (%1)</source>
        <translation>Gradienten (%1)</translation>
    </message>
    <message>
        <source>A weight tied to %1: its bytes are counted once, under %1&apos;s module.</source>
        <translation>Ein an %1 gekoppeltes Gewicht: seine Bytes werden einmal gezählt, beim Modul von %1.</translation>
    </message>
    <message>
        <source>tied to %1</source>
        <translation>gekoppelt an %1</translation>
    </message>
    <message>
        <source>An FSDP unit: this rank holds %1 of its %2 parameters; gathered whole they are %3, all-gathered %4 times in the step (%5 of them prefetched) and held %6 ms in all; %7 of them at the peak; its largest reduce-scatter %8.</source>
        <translation>Eine FSDP-Einheit: dieser Rang hält %1 ihrer %2 Parameter; ganz zusammengeführt sind sie %3, im Schritt %4-mal per All-Gather geholt (%5 davon vorab) und insgesamt %6 ms gehalten; %7 davon zur Spitze; ihr größtes Reduce-Scatter %8.</translation>
    </message>
    <message>
        <source>Its all-gathers (%1): %2, %3, %4 ms.</source>
        <translation>Ihre All-Gathers (%1): %2, %3, %4 ms.</translation>
    </message>
    <message>
        <source>Its reduce-scatters (%1): %2, %3, %4 ms.</source>
        <translation>Ihre Reduce-Scatters (%1): %2, %3, %4 ms.</translation>
    </message>
    <message>
        <source>bytes not known</source>
        <translation>Bytes unbekannt</translation>
    </message>
    <message>
        <source>The imported file names no parameters: the module&apos;s weights and gradients are not known.</source>
        <translation>Die importierte Datei benennt keine Parameter: Gewichte und Gradienten des Moduls sind nicht bekannt.</translation>
    </message>
    <message>
        <source>not named</source>
        <translation>nicht benannt</translation>
    </message>
    <message>
        <source>The time of its operations between the backward pass and the optimizer&apos;s step (gradient clipping)</source>
        <translation>Die Zeit seiner Operationen zwischen dem Rückwärtsdurchlauf und dem Schritt des Optimierers (Gradient-Clipping)</translation>
    </message>
    <message>
        <source>The time of its operations in the optimizer&apos;s step</source>
        <translation>Die Zeit seiner Operationen im Schritt des Optimierers</translation>
    </message>
    <message>
        <source>After backward (%1)</source>
        <translation>Nach Rückwärts (%1)</translation>
    </message>
    <message>
        <source>Optimizer (%1)</source>
        <translation>Optimierer (%1)</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::ModulesPage</name>
    <message>
        <source>&amp;Reset Zoom</source>
        <translation>Zoom &amp;zurücksetzen</translation>
    </message>
    <message>
        <source>Reading the modules…</source>
        <translation>Die Module werden gelesen …</translation>
    </message>
    <message>
        <source>Inclusive (with submodules)</source>
        <translation>Einschließlich (mit Untermodulen)</translation>
    </message>
    <message>
        <source>Self (its own operations)</source>
        <translation>Nur eigene (seine eigenen Operationen)</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>Aktivierungen</translation>
    </message>
    <message>
        <source>Weights and gradients</source>
        <translation>Gewichte und Gradienten</translation>
    </message>
    <message>
        <source>&amp;Figures:</source>
        <translation>&amp;Werte:</translation>
    </message>
    <message>
        <source>Chart &amp;width:</source>
        <translation>&amp;Breite im Diagramm:</translation>
    </message>
    <message>
        <source>The modules could not be read in full: %1</source>
        <translation>Die Module konnten nicht vollständig gelesen werden: %1</translation>
    </message>
    <message>
        <source>&amp;Filter to This Module</source>
        <translation>Auf dieses Modul &amp;filtern</translation>
    </message>
    <message>
        <source>(model)</source>
        <translation>(Modell)</translation>
    </message>
    <message>
        <source>%1 (#%2–%3)</source>
        <translation>%1 (Nr. %2–%3)</translation>
    </message>
    <message>
        <source>&amp;Zoom Chart Here</source>
        <translation>Diagramm hierher &amp;zoomen</translation>
    </message>
    <message>
        <source>Find modules and operations</source>
        <translation>Module und Operationen suchen</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::NewProfileDialog</name>
    <message>
        <source>Built-in model</source>
        <translation>Eingebautes Modell</translation>
    </message>
    <message>
        <source>TorchScript file</source>
        <translation>TorchScript-Datei</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Batchgröße</translation>
    </message>
    <message>
        <source>model default</source>
        <translation>Vorgabe des Modells</translation>
    </message>
    <message>
        <source>Memory only</source>
        <translation>Nur Speicher</translation>
    </message>
    <message>
        <source>Time only</source>
        <translation>Nur Zeit</translation>
    </message>
    <message>
        <source>New Profile</source>
        <translation>Neues Profil</translation>
    </message>
    <message>
        <source>model.pt (torch.jit.script or trace, then .save)</source>
        <translation>model.pt (torch.jit.script oder trace, dann .save)</translation>
    </message>
    <message>
        <source>default: the model file&apos;s folder</source>
        <translation>Vorgabe: der Ordner der Modelldatei</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>Form</translation>
    </message>
    <message>
        <source>Data type</source>
        <translation>Datentyp</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen …</translation>
    </message>
    <message>
        <source>Add Input</source>
        <translation>Eingabe hinzufügen</translation>
    </message>
    <message>
        <source>Remove Input</source>
        <translation>Eingabe entfernen</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Project root:</source>
        <translation>Projektordner:</translation>
    </message>
    <message>
        <source>Inputs (none: the built-in model&apos;s defaults)</source>
        <translation>Eingaben (keine: die Vorgaben des eingebauten Modells)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Device:</source>
        <translation>Gerät:</translation>
    </message>
    <message>
        <source>Data type:</source>
        <translation>Datentyp:</translation>
    </message>
    <message>
        <source>Loss:</source>
        <translation>Verlustfunktion:</translation>
    </message>
    <message>
        <source>Optimizer:</source>
        <translation>Optimierer:</translation>
    </message>
    <message>
        <source>Warm-up iterations:</source>
        <translation>Aufwärm-Iterationen:</translation>
    </message>
    <message>
        <source>Measured iterations:</source>
        <translation>Gemessene Iterationen:</translation>
    </message>
    <message>
        <source>Measure:</source>
        <translation>Messen:</translation>
    </message>
    <message>
        <source>Save as:</source>
        <translation>Speichern unter:</translation>
    </message>
    <message>
        <source>Start Profiling</source>
        <translation>Profilierung starten</translation>
    </message>
    <message>
        <source>TorchScript Model</source>
        <translation>TorchScript-Modell</translation>
    </message>
    <message>
        <source>TorchScript archives (*.pt *.pth *.zip);;All files (*)</source>
        <translation>TorchScript-Archive (*.pt *.pth *.zip);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Project Root</source>
        <translation>Projektordner</translation>
    </message>
    <message>
        <source>Save Reports As</source>
        <translation>Berichte speichern unter</translation>
    </message>
    <message>
        <source>Inputs File</source>
        <translation>Eingabedatei</translation>
    </message>
    <message>
        <source>Inputs (*.pt);;All files (*)</source>
        <translation>Eingaben (*.pt);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>run&apos;s data type</source>
        <translation>Datentyp des Laufs</translation>
    </message>
    <message>
        <source>%1 must be %2</source>
        <translation>%1 muss %2 sein</translation>
    </message>
    <message>
        <source>Choose a TorchScript file.</source>
        <translation>Wählen Sie eine TorchScript-Datei.</translation>
    </message>
    <message>
        <source>The model file %1 does not exist.</source>
        <translation>Die Modelldatei %1 existiert nicht.</translation>
    </message>
    <message>
        <source>The project root %1 is not a folder.</source>
        <translation>Der Projektordner %1 ist kein Ordner.</translation>
    </message>
    <message>
        <source>Input %1: %2</source>
        <translation>Eingabe %1: %2</translation>
    </message>
    <message>
        <source>The inputs file %1 does not exist.</source>
        <translation>Die Eingabedatei %1 existiert nicht.</translation>
    </message>
    <message>
        <source>A TorchScript model needs its inputs: shapes, or an inputs file.</source>
        <translation>Ein TorchScript-Modell braucht seine Eingaben: Formen oder eine Eingabedatei.</translation>
    </message>
    <message>
        <source>Choose where to save the reports.</source>
        <translation>Wählen Sie, wo die Berichte gespeichert werden.</translation>
    </message>
    <message>
        <source>The folder %1 does not exist.</source>
        <translation>Der Ordner %1 existiert nicht.</translation>
    </message>
    <message>
        <source>%1 exists already; reports are never overwritten.</source>
        <translation>%1 existiert bereits; Berichte werden nie überschrieben.</translation>
    </message>
    <message>
        <source>For a TorchScript model: its inputs, saved by trainscope-export</source>
        <translation>Für ein TorchScript-Modell: seine Eingaben, gespeichert von trainscope-export</translation>
    </message>
    <message>
        <source>Or, for a TorchScript model, an inputs file:</source>
        <translation>Oder, für ein TorchScript-Modell, eine Eingabedatei:</translation>
    </message>
    <message>
        <source>default: %1</source>
        <translation>Standard: %1</translation>
    </message>
    <message>
        <source>Memory, time and timeline</source>
        <translation>Speicher, Zeit und Zeitleiste</translation>
    </message>
    <message>
        <source>Timeline only</source>
        <translation>Nur Zeitleiste</translation>
    </message>
    <message>
        <source>Sweep batch sizes</source>
        <translation>Batchgrößen durchlaufen</translation>
    </message>
    <message>
        <source>Batch sizes to profile, separated by commas: 4,8,16</source>
        <translation>Zu profilierende Batchgrößen, durch Kommas getrennt: 4,8,16</translation>
    </message>
    <message>
        <source>default: the device&apos;s free memory (CUDA) or the available RAM</source>
        <translation>Standard: freier Gerätespeicher (CUDA) oder verfügbarer Arbeitsspeicher</translation>
    </message>
    <message>
        <source>default: the available RAM</source>
        <translation>Standard: verfügbarer Arbeitsspeicher</translation>
    </message>
    <message>
        <source>The memory the largest batch must fit in: 24GiB, 512MiB</source>
        <translation>Der Speicher, in den der größte Batch passen muss: 24GiB, 512MiB</translation>
    </message>
    <message>
        <source>Batch sizes:</source>
        <translation>Batchgrößen:</translation>
    </message>
    <message>
        <source>Memory budget:</source>
        <translation>Speicherbudget:</translation>
    </message>
    <message>
        <source>A sweep changes the batch size: give the inputs as shapes, not a file.</source>
        <translation>Ein Sweep ändert die Batchgröße: Eingaben als Formen angeben, nicht als Datei.</translation>
    </message>
    <message>
        <source>Python entry point</source>
        <translation>Python-Einstiegspunkt</translation>
    </message>
    <message>
        <source>entry_point.py with model_provider, input_provider, iteration_provider</source>
        <translation>entry_point.py mit model_provider, input_provider, iteration_provider</translation>
    </message>
    <message>
        <source>Your own training step, run by the interpreter below with your torch (python3 -m trainscope profile)</source>
        <translation>Ihr eigener Trainingsschritt, ausgeführt vom Interpreter unten mit Ihrem torch (python3 -m trainscope profile)</translation>
    </message>
    <message>
        <source>The Python that runs the entry point: it needs torch, and finds the trainscope module</source>
        <translation>Das Python, das den Einstiegspunkt ausführt: Es braucht torch und findet das Modul trainscope</translation>
    </message>
    <message>
        <source>Use the project&apos;s environment: %1</source>
        <translation>Umgebung des Projekts verwenden: %1</translation>
    </message>
    <message>
        <source>Run the entry point with the Python of the environment beside it</source>
        <translation>Den Einstiegspunkt mit dem Python der Umgebung daneben ausführen</translation>
    </message>
    <message>
        <source>Interpreter:</source>
        <translation>Interpreter:</translation>
    </message>
    <message>
        <source>Python Entry Point</source>
        <translation>Python-Einstiegspunkt</translation>
    </message>
    <message>
        <source>Python files (*.py);;All files (*)</source>
        <translation>Python-Dateien (*.py);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Choose a Python entry point.</source>
        <translation>Wählen Sie einen Python-Einstiegspunkt.</translation>
    </message>
    <message>
        <source>The entry point %1 does not exist.</source>
        <translation>Der Einstiegspunkt %1 existiert nicht.</translation>
    </message>
    <message>
        <source>Name the Python interpreter that runs the entry point.</source>
        <translation>Nennen Sie den Python-Interpreter, der den Einstiegspunkt ausführt.</translation>
    </message>
    <message>
        <source>automatic: doubling toward a quarter of the budget</source>
        <translation>automatisch: verdoppelnd bis zu einem Viertel des Budgets</translation>
    </message>
    <message>
        <source>inputs.pt (trainscope-export)</source>
        <translation>inputs.pt (trainscope-export)</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::OverviewPage</name>
    <message>
        <source>Peak memory: %1</source>
        <translation>Spitzenspeicher: %1</translation>
    </message>
    <message>
        <source>Top operations by activation memory</source>
        <translation>Operationen mit dem meisten Aktivierungsspeicher</translation>
    </message>
    <message>
        <source>Top operations by time</source>
        <translation>Zeitintensivste Operationen</translation>
    </message>
    <message>
        <source>Could not read the report&apos;s totals: %1</source>
        <translation>Die Summen des Berichts konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>At the peak: weights %1   gradients %2   optimizer state %3   activations %4   other %5</source>
        <translation>Zur Spitze: Gewichte %1   Gradienten %2   Optimiererzustand %3   Aktivierungen %4   Sonstiges %5</translation>
    </message>
    <message>
        <source>The parts at the peak sum to %1, not to the peak.</source>
        <translation>Die Teile zur Spitze ergeben %1, nicht die Spitze.</translation>
    </message>
    <message>
        <source>Over the iteration: weights %1   gradients %2   activations %3</source>
        <translation>Über die Iteration: Gewichte %1   Gradienten %2   Aktivierungen %3</translation>
    </message>
    <message>
        <source>Modules at the peak</source>
        <translation>Module zur Spitze</translation>
    </message>
    <message>
        <source>Iteration (wall, median of the timed iterations): %1 ms
%2, %3% of the iteration</source>
        <translation>Iteration (Echtzeit, Median der gemessenen Iterationen): %1 ms
%2, %3 % der Iteration</translation>
    </message>
    <message>
        <source>Of the weights at the peak, %1 are parameters that FSDP all-gathered for a unit&apos;s compute; of the gradients, %2 are its reduce-scatter buffers.</source>
        <translation>Von den Gewichten zur Spitze sind %1 Parameter, die FSDP für die Rechnung einer Einheit zusammengeführt hat (All-Gather); von den Gradienten sind %2 seine Reduce-Scatter-Puffer.</translation>
    </message>
    <message>
        <source>Sharded over the ranks: %1 of the %2 parameters (%3); this rank holds %4 of their %5.</source>
        <translation>Über die Ränge verteilt: %1 der %2 Parameter (%3); dieser Rang hält %4 von ihren %5.</translation>
    </message>
    <message>
        <source>not named in the imported file</source>
        <translation>in der importierten Datei nicht benannt</translation>
    </message>
    <message>
        <source>Largest blocks alive at the peak</source>
        <translation>Größte zur Spitze belegte Blöcke</translation>
    </message>
    <message>
        <source>Backward not attributed: %1</source>
        <translation>Rückwärtszeit nicht zugeordnet: %1</translation>
    </message>
    <message>
        <source>Memory incomplete: %1</source>
        <translation>Speicher unvollständig: %1</translation>
    </message>
    <message>
        <source>Over the iteration: activations %1; no weights listed, nor their gradients: the imported file names no parameters</source>
        <translation>Über die Iteration: Aktivierungen %1; keine Gewichte aufgeführt, auch nicht ihre Gradienten: Die importierte Datei benennt keine Parameter</translation>
    </message>
    <message>
        <source>forward %1 ms, backward %2 ms</source>
        <translation>vorwärts %1 ms, rückwärts %2 ms</translation>
    </message>
    <message>
        <source>, after backward %1 ms</source>
        <translation>, nach rückwärts %1 ms</translation>
    </message>
    <message>
        <source>, optimizer %1 ms</source>
        <translation>, Optimierer %1 ms</translation>
    </message>
    <message>
        <source>Sum of operations: %1 ms (%2), %3 operations</source>
        <translation>Summe der Operationen: %1 ms (%2), %3 Operationen</translation>
    </message>
    <message>
        <source>Operation times are GPU times, between CUDA events around each operation</source>
        <translation>Operationszeiten sind GPU-Zeiten, zwischen CUDA-Ereignissen um jede Operation</translation>
    </message>
    <message>
        <source>Operation times are device times: the kernels, copies and sets each operation launched</source>
        <translation>Operationszeiten sind Gerätezeiten: die Kernels, Kopien und Füllungen, die jede Operation gestartet hat</translation>
    </message>
    <message>
        <source>Operation times are CPU times, each call&apos;s span on its thread</source>
        <translation>Operationszeiten sind CPU-Zeiten, die Spanne jedes Aufrufs auf seinem Thread</translation>
    </message>
    <message>
        <source>Device work: kernels %1, copies %2, sets %3 on streams %4; joined to their operation %5</source>
        <translation>Gerätearbeit: Kernels %1, Kopien %2, Füllungen %3 auf Streams %4; ihrer Operation zugeordnet %5</translation>
    </message>
    <message>
        <source>, without their launch in the trace %1</source>
        <translation>, ohne ihren Start in der Aufzeichnung %1</translation>
    </message>
    <message>
        <source>, launched outside any operation %1</source>
        <translation>, außerhalb jeder Operation gestartet %1</translation>
    </message>
    <message>
        <source>Iteration (wall, one iteration timed): %1 ms
%2, %3% of the iteration</source>
        <translation>Iteration (Echtzeit, eine Iteration gemessen): %1 ms
%2, %3 % der Iteration</translation>
    </message>
    <message>
        <source>Device time of the listed step: %1 ms from its first task to its last; computation %2 ms, communication %3 ms exposed (%6 ms more hidden behind computation), copies and sets %4 ms, idle %5 ms</source>
        <translation>Gerätezeit des gezeigten Schritts: %1 ms von seiner ersten bis zu seiner letzten Aufgabe; Rechnen %2 ms, Kommunikation %3 ms offen (weitere %6 ms hinter Rechnen verborgen), Kopien und Füllungen %4 ms, untätig %5 ms</translation>
    </message>
    <message>
        <source>Sum of operations&apos; device time: %1 ms (%2), %3 operations</source>
        <translation>Summe der Gerätezeit der Operationen: %1 ms (%2), %3 Operationen</translation>
    </message>
    <message>
        <source>Iteration (wall, one iteration timed): %1 ms</source>
        <translation>Iteration (Echtzeit, eine Iteration gemessen): %1 ms</translation>
    </message>
    <message>
        <source>Iteration (wall, median of the timed iterations): %1 ms</source>
        <translation>Iteration (Echtzeit, Median der gemessenen Iterationen): %1 ms</translation>
    </message>
    <message>
        <source>, %1 SMs</source>
        <translation>, %1 SMs</translation>
    </message>
    <message>
        <source>Recorded on %1</source>
        <translation>Aufgezeichnet auf %1</translation>
    </message>
    <message>
        <source>Recorded on %1, rank %2</source>
        <translation>Aufgezeichnet auf %1, Rang %2</translation>
    </message>
    <message>
        <source>Recorded on %1, rank %2 of %3</source>
        <translation>Aufgezeichnet auf %1, Rang %2 von %3</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::ProfileWorker</name>
    <message>
        <source>The run ran out of memory.</source>
        <translation>Dem Lauf ist der Speicher ausgegangen.</translation>
    </message>
    <message>
        <source>Batch %1 (%2 of %3): </source>
        <translation>Batch %1 (%2 von %3): </translation>
    </message>
</context>
<context>
    <name>trainscope::ui::PythonRun</name>
    <message>
        <source>Could not start %1: %2</source>
        <translation>%1 konnte nicht gestartet werden: %2</translation>
    </message>
    <message>
        <source>%1 ended with exit code %2</source>
        <translation>%1 endete mit dem Exit-Code %2</translation>
    </message>
    <message>
        <source>%1 did not import trainscope within %2 s</source>
        <translation>%1 hat trainscope nicht innerhalb von %2 s importiert</translation>
    </message>
    <message>
        <source>%1 ended while importing trainscope, which is likely built for another torch</source>
        <translation>%1 endete beim Import von trainscope, das wohl für ein anderes torch gebaut ist</translation>
    </message>
    <message>
        <source>%1 has no trainscope: install it into that environment with `%1 -m pip install --no-build-isolation` and TrainScope&apos;s source folder</source>
        <translation>%1 hat kein trainscope: installieren Sie es in diese Umgebung mit `%1 -m pip install --no-build-isolation` und dem Quellordner von TrainScope</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::RankSummaryPage</name>
    <message>
        <source>&amp;Rank:</source>
        <translation>&amp;Rang:</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::RanksPage</name>
    <message numerus="yes">
        <source>Reading the timelines of %n ranks…</source>
        <translation>
            <numerusform>Die Zeitleiste von %n Rang wird gelesen …</numerusform>
            <numerusform>Die Zeitleisten von %n Rängen werden gelesen …</numerusform>
        </translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rang</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>Median step</source>
        <translation>Median-Schritt</translation>
    </message>
    <message>
        <source>Memory step</source>
        <translation>Speicherschritt</translation>
    </message>
    <message>
        <source>Computation</source>
        <translation>Berechnung</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>Kommunikation</translation>
    </message>
    <message>
        <source>Overlapped</source>
        <translation>Überlappt</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>Leerlauf</translation>
    </message>
    <message>
        <source>Collective</source>
        <translation>Kollektiv</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <source>Longest wait</source>
        <translation>Längste Wartezeit</translation>
    </message>
    <message>
        <source>Waiting for rank</source>
        <translation>Wartet auf Rang</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Shortest</source>
        <translation>Kürzester</translation>
    </message>
    <message>
        <source>Longest</source>
        <translation>Längster</translation>
    </message>
    <message>
        <source>Longest on rank</source>
        <translation>Längster auf Rang</translation>
    </message>
    <message>
        <source>Collectives the others wait in, the longest wait first</source>
        <translation>Kollektive, in denen die anderen warten, die längste Wartezeit zuerst</translation>
    </message>
    <message>
        <source>Steps across the ranks, matched by number</source>
        <translation>Schritte über die Ränge, nach Nummer zugeordnet</translation>
    </message>
    <message>
        <source>These timelines cannot be summed up as the ranks of one job: %1</source>
        <translation>Diese Zeitleisten lassen sich nicht als die Ränge eines Jobs zusammenfassen: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n ranks. Slowest: rank %1, with %2 more time outside communication than the other ranks (their median): what they spend waiting for it.</source>
        <translation>
            <numerusform>%n Rang. Langsamster: Rang %1, mit %2 mehr Zeit außerhalb der Kommunikation als die anderen Ränge (ihr Median): so lange warten sie auf ihn.</numerusform>
            <numerusform>%n Ränge. Langsamster: Rang %1, mit %2 mehr Zeit außerhalb der Kommunikation als die anderen Ränge (ihr Median): so lange warten sie auf ihn.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n ranks. No rank stands out: rank %1 has the most time outside communication, %2 more than the others (their median), within how much a rank&apos;s steps vary (%3).</source>
        <translation>
            <numerusform>%n Rang. Kein Rang sticht heraus: Rang %1 hat die meiste Zeit außerhalb der Kommunikation, %2 mehr als die anderen (ihr Median), innerhalb dessen, wie sehr die Schritte eines Rangs schwanken (%3).</numerusform>
            <numerusform>%n Ränge. Kein Rang sticht heraus: Rang %1 hat die meiste Zeit außerhalb der Kommunikation, %2 mehr als die anderen (ihr Median), innerhalb dessen, wie sehr die Schritte eines Rangs schwanken (%3).</numerusform>
        </translation>
    </message>
    <message>
        <source>Held up by rank</source>
        <translation>Aufgehalten von Rang</translation>
    </message>
    <message numerus="yes">
        <source>Rank %1 held up %2 of %n steps: the others waited for it in the step&apos;s collectives, at least a tenth of the step, in more steps than chance.</source>
        <translation>
            <numerusform>Rang %1 hielt %2 von %n Schritt auf: Die anderen warteten in den Kollektiven des Schritts auf ihn, mindestens ein Zehntel des Schritts, in mehr Schritten als durch Zufall.</numerusform>
            <numerusform>Rang %1 hielt %2 von %n Schritten auf: Die anderen warteten in den Kollektiven des Schritts auf ihn, mindestens ein Zehntel des Schritts, in mehr Schritten als durch Zufall.</numerusform>
        </translation>
    </message>
    <message>
        <source>No rank held the steps up: the rank the others waited for changed from step to step.</source>
        <translation>Kein Rang hielt die Schritte auf: Der Rang, auf den die anderen warteten, wechselte von Schritt zu Schritt.</translation>
    </message>
    <message>
        <source>Others waited for it</source>
        <translation>Wartezeit der anderen</translation>
    </message>
    <message>
        <source>Each rank&apos;s clock is its own: steps are matched by number and collectives by what they are (operation, inputs) and their order among those.</source>
        <translation>Jeder Rang hat seine eigene Uhr: Schritte werden nach Nummer zugeordnet, Kollektive danach, was sie sind (Operation, Eingaben), und nach ihrer Reihenfolge unter diesen.</translation>
    </message>
    <message>
        <source>The breakdown is of each rank&apos;s first step as its GPU ran it: computation its kernels, copies and sets, communication its NCCL kernels, each instant once.</source>
        <translation>Die Aufschlüsselung gilt dem ersten Schritt jedes Rangs, wie seine GPU ihn ausführte: Rechnen seine Kernel, Kopien und Füllungen, Kommunikation seine NCCL-Kernel, jeder Augenblick einmal.</translation>
    </message>
    <message>
        <source>The breakdown is of the memory step (the step whose calls the timelines hold), with the memory meter&apos;s cost.</source>
        <translation>Die Aufschlüsselung gilt dem Speicherschritt (dem Schritt, dessen Aufrufe die Zeitleisten enthalten), mit den Kosten des Speichermessers.</translation>
    </message>
    <message>
        <source>First step</source>
        <translation>Erster Schritt</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::ReportBrowser</name>
    <message>
        <source>Overview</source>
        <translation>Übersicht</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>By Source Line</source>
        <translation>Nach Quellzeile</translation>
    </message>
    <message>
        <source>This report&apos;s source is in %1. Show files from there?</source>
        <translation>Der Quelltext dieses Berichts liegt in %1. Dateien von dort anzeigen?</translation>
    </message>
    <message>
        <source>The stack frames cannot be read: %1</source>
        <translation>Die Stack-Frames können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>This report&apos;s source folders could not be read: %1</source>
        <translation>Die Quellordner dieses Berichts konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Modules</source>
        <translation>Module</translation>
    </message>
    <message>
        <source>Compiled</source>
        <translation>Kompiliert</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::ReportFile</name>
    <message>
        <source>a size that is not a byte count</source>
        <translation>eine Größe, die keine Byte-Anzahl ist</translation>
    </message>
    <message>
        <source>a line number or ordering out of range</source>
        <translation>eine Zeilennummer oder Reihenfolge außerhalb des gültigen Bereichs</translation>
    </message>
    <message>
        <source>a time that is not a finite, non-negative number of milliseconds</source>
        <translation>eine Zeit, die keine endliche, nicht negative Anzahl Millisekunden ist</translation>
    </message>
    <message>
        <source>a file path that is not text</source>
        <translation>einen Dateipfad, der kein Text ist</translation>
    </message>
    <message>
        <source>a value that is not text</source>
        <translation>einen Wert, der kein Text ist</translation>
    </message>
    <message>
        <source>a module path that is not text</source>
        <translation>einen Modulpfad, der kein Text ist</translation>
    </message>
    <message>
        <source>an operation number that is not a count</source>
        <translation>eine Operationsnummer, die keine Anzahl ist</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::ReportRun</name>
    <message>
        <source>the report is not open</source>
        <translation>der Bericht ist nicht geöffnet</translation>
    </message>
    <message>
        <source>Not opened %1: a window shows one run, and %2 is already its report of that kind.</source>
        <translation>%1 nicht geöffnet: Ein Fenster zeigt einen Lauf, und %2 ist bereits dessen Bericht dieser Art.</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::RunFilterBar</name>
    <message>
        <source>Back</source>
        <translation>Zurück</translation>
    </message>
    <message>
        <source>Reset Filter</source>
        <translation>Filterung aufheben</translation>
    </message>
    <message>
        <source>Undo the last range filter</source>
        <translation>Den letzten Bereichsfilter rückgängig machen</translation>
    </message>
    <message>
        <source>Show every operation again</source>
        <translation>Wieder alle Operationen zeigen</translation>
    </message>
    <message>
        <source>operations %1–%2 (%3)</source>
        <translation>Operationen %1–%2 (%3)</translation>
    </message>
    <message>
        <source>names containing “%1”</source>
        <translation>Namen mit „%1“</translation>
    </message>
    <message>
        <source>Filtered to %1</source>
        <translation>Gefiltert auf %1</translation>
    </message>
    <message>
        <source> and </source>
        <translation> und </translation>
    </message>
</context>
<context>
    <name>trainscope::ui::RunFilterField</name>
    <message>
        <source>Filter operations by name</source>
        <translation>Operationen nach Namen filtern</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::SettingsDialog</name>
    <message>
        <source>The new language applies when TrainScope next starts.</source>
        <translation>Die neue Sprache gilt ab dem nächsten Start von TrainScope.</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>Systemvorgabe</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>Eigener</translation>
    </message>
    <message>
        <source>%f is replaced by the file, %l by the line, %c by the column.</source>
        <translation>%f wird durch die Datei ersetzt, %l durch die Zeile, %c durch die Spalte.</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>Sprache:</translation>
    </message>
    <message>
        <source>Editor:</source>
        <translation>Editor:</translation>
    </message>
    <message>
        <source>Editor command:</source>
        <translation>Editor-Befehl:</translation>
    </message>
    <message>
        <source>As the desktop</source>
        <translation>Wie der Desktop</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <source>Theme:</source>
        <translation>Farbschema:</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::SourceLinesPage</name>
    <message>
        <source>Memory by source line (weights and activations, per most specific frame)</source>
        <translation>Speicher nach Quellzeile (Gewichte und Aktivierungen, je innerstem Frame)</translation>
    </message>
    <message>
        <source>Memory at the peak by source line (the blocks alive then, per most specific frame)</source>
        <translation>Speicher zur Spitze nach Quellzeile (die dann belegten Blöcke, je innerstem Frame)</translation>
    </message>
    <message>
        <source>Time by source line (each part of the step, per most specific frame)</source>
        <translation>Zeit nach Quellzeile (je Teil des Schritts, je innerstem Frame)</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::SourcePanel</name>
    <message>
        <source>Open in Editor</source>
        <translation>Im Editor öffnen</translation>
    </message>
    <message>
        <source>Stack frames of the selected entry, most specific first</source>
        <translation>Stack-Frames des gewählten Eintrags, innerster zuerst</translation>
    </message>
    <message>
        <source>Runs the editor command from Settings</source>
        <translation>Führt den Editor-Befehl aus den Einstellungen aus</translation>
    </message>
    <message>
        <source>(no frames in the project)</source>
        <translation>(keine Frames im Projekt)</translation>
    </message>
    <message>
        <source>Show Files</source>
        <translation>Dateien anzeigen</translation>
    </message>
    <message>
        <source>Don&apos;t Show</source>
        <translation>Nicht anzeigen</translation>
    </message>
    <message>
        <source>(no frames in the project: %1)</source>
        <translation>(keine Frames im Projekt: %1)</translation>
    </message>
    <message>
        <source>No project frames: %1</source>
        <translation>Keine Projekt-Frames: %1</translation>
    </message>
    <message>
        <source>%1:%2 (library code, read-only)</source>
        <translation>%1:%2 (Bibliothekscode, schreibgeschützt)</translation>
    </message>
    <message>
        <source>%1:%2 is not on this machine (it was in %3 where the report was recorded).</source>
        <translation>%1:%2 ist nicht auf diesem Rechner (es lag in %3, wo der Bericht aufgezeichnet wurde).</translation>
    </message>
    <message>
        <source>&amp;Open in Editor</source>
        <translation>Im &amp;Editor öffnen</translation>
    </message>
    <message>
        <source>&amp;Copy Location</source>
        <translation>Ort &amp;kopieren</translation>
    </message>
    <message>
        <source>(the frames cannot be read)</source>
        <translation>(die Frames können nicht gelesen werden)</translation>
    </message>
    <message>
        <source>%1 is not in %2, the report&apos;s own folder. The report names the folder it was profiled in above: choose Show Files to show it from there.</source>
        <translation>%1 liegt nicht in %2, dem Ordner des Berichts. Der Bericht nennt oben den Ordner, in dem profiliert wurde: Wählen Sie „Dateien anzeigen“, um die Datei von dort anzuzeigen.</translation>
    </message>
    <message>
        <source>%1:%2 is library code in %3, a folder this report names; choose Show Files above to show it.</source>
        <translation>%1:%2 ist Bibliothekscode in %3, einem Ordner, den dieser Bericht nennt; wählen Sie oben „Dateien anzeigen“, um ihn zu zeigen.</translation>
    </message>
    <message>
        <source>%1
Library frame, relative to %2</source>
        <translation>%1
Bibliotheks-Frame, relativ zu %2</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::SourceViewer</name>
    <message>
        <source>Select a stack frame to see its source.</source>
        <translation>Wählen Sie einen Stack-Frame, um seinen Quelltext zu sehen.</translation>
    </message>
    <message>
        <source>%1 is too large to show (over 16 MiB).</source>
        <translation>%1 ist zu groß zum Anzeigen (über 16 MiB).</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::SqlTableModel</name>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Bytes</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>This table could not be read in full: %1</source>
        <translation>Diese Tabelle konnte nicht vollständig gelesen werden: %1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 (ms)</source>
        <translation>%1 (ms)</translation>
    </message>
    <message>
        <source>%1 (bytes)</source>
        <translation>%1 (Bytes)</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::TimePage</name>
    <message>
        <source>Per invocation</source>
        <translation>Je Aufruf</translation>
    </message>
    <message>
        <source>Grouped by operation</source>
        <translation>Nach Operation gruppiert</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Anzeigen:</translation>
    </message>
    <message>
        <source>Top operations by time</source>
        <translation>Zeitintensivste Operationen</translation>
    </message>
    <message>
        <source>Top operations by time, summed per operation</source>
        <translation>Zeitintensivste Operationen, je Operation summiert</translation>
    </message>
    <message>
        <source>%1 — “%2”</source>
        <translation>%1 — „%2“</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::TimelinePage</name>
    <message>
        <source>Reading %1…</source>
        <translation>Lese %1 …</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Einpassen</translation>
    </message>
    <message>
        <source>Show the whole timeline (Ctrl+0)</source>
        <translation>Die ganze Zeitleiste zeigen (Strg+0)</translation>
    </message>
    <message>
        <source>Zoom In</source>
        <translation>Vergrößern</translation>
    </message>
    <message>
        <source>Zoom Out</source>
        <translation>Verkleinern</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>Spitze</translation>
    </message>
    <message>
        <source>List the blocks alive at the memory peak</source>
        <translation>Die zur Speicherspitze belegten Blöcke auflisten</translation>
    </message>
    <message>
        <source>Find operation (Ctrl+F, Enter for next)</source>
        <translation>Operation suchen (Strg+F, Eingabe für die nächste)</translation>
    </message>
    <message>
        <source>Cannot read the timeline: %1</source>
        <translation>Die Zeitleiste kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>This timeline names its source files by absolute paths of the machine that recorded it. Show those files where they exist on this machine?</source>
        <translation>Diese Zeitleiste nennt ihre Quelldateien mit absoluten Pfaden des Rechners, der sie aufgezeichnet hat. Diese Dateien anzeigen, wo sie auf diesem Rechner existieren?</translation>
    </message>
    <message>
        <source>%1. Wheel: zoom · drag: pan · Shift+drag: zoom to a range · click: select · click the memory curve: blocks alive then</source>
        <translation>%1. Mausrad: zoomen · Ziehen: verschieben · Umschalt+Ziehen: auf einen Bereich zoomen · Klick: auswählen · Klick auf die Speicherkurve: dann belegte Blöcke</translation>
    </message>
    <message>
        <source>No operation matches “%1”.</source>
        <translation>Keine Operation passt zu „%1“.</translation>
    </message>
    <message>
        <source>“%1”: %2 of %3</source>
        <translation>„%1“: %2 von %3</translation>
    </message>
    <message>
        <source>Filter to View</source>
        <translation>Auf Ansicht filtern</translation>
    </message>
    <message>
        <source>Keep, in the run&apos;s tables, the operations whose forward calls are in view</source>
        <translation>In den Tabellen des Laufs die Operationen behalten, deren Vorwärtsaufrufe sichtbar sind</translation>
    </message>
    <message>
        <source>No forward call of an operation is in view: nothing to filter to.</source>
        <translation>Kein Vorwärtsaufruf einer Operation ist sichtbar: nichts zu filtern.</translation>
    </message>
    <message>
        <source>in view in the timeline: %1 to %2</source>
        <translation>sichtbar in der Zeitleiste: %1 bis %2</translation>
    </message>
    <message>
        <source>Cannot read the calls of %1: %2</source>
        <translation>Die Aufrufe von %1 lassen sich nicht lesen: %2</translation>
    </message>
    <message numerus="yes">
        <source>No operation of the ranks shown matches “%1” (%n collapsed rank(s) not searched: click a rank&apos;s title to show its calls).</source>
        <translation>
            <numerusform>Keine Operation der gezeigten Ränge passt zu „%1“ (%n eingeklappter Rang nicht durchsucht: klicken Sie auf den Titel eines Rangs, um seine Aufrufe zu zeigen).</numerusform>
            <numerusform>Keine Operation der gezeigten Ränge passt zu „%1“ (%n eingeklappte Ränge nicht durchsucht: klicken Sie auf den Titel eines Rangs, um seine Aufrufe zu zeigen).</numerusform>
        </translation>
    </message>
    <message>
        <source>No times in the file: its events are placed 1 µs apart in their order. %1</source>
        <translation>Keine Zeiten in der Datei: Ihre Ereignisse stehen 1 µs voneinander entfernt in ihrer Reihenfolge. %1</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::TimelineSummaryPage</name>
    <message>
        <source>Reading %1…</source>
        <translation>Lese %1 …</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>Gesamt</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>Aufrufe</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>Operation</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Freed after</source>
        <translation>Freigegeben nach</translation>
    </message>
    <message>
        <source>Operations by total time (nested calls count inside their parents too)</source>
        <translation>Operationen nach Gesamtzeit (verschachtelte Aufrufe zählen auch in ihren Aufrufern)</translation>
    </message>
    <message>
        <source>Largest allocations</source>
        <translation>Größte Allokationen</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>never freed</source>
        <translation>nie freigegeben</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>Kategorie</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::TimelineWidget</name>
    <message>
        <source>Step %1 · %2</source>
        <translation>Schritt %1 · %2</translation>
    </message>
    <message>
        <source>from step start</source>
        <translation>ab Schrittbeginn</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>Rang %1</translation>
    </message>
    <message>
        <source>File %1</source>
        <translation>Datei %1</translation>
    </message>
    <message>
        <source>%1 — step %2</source>
        <translation>%1 – Schritt %2</translation>
    </message>
    <message>
        <source> (slowest)</source>
        <translation> (am langsamsten)</translation>
    </message>
    <message>
        <source>Duration: %1</source>
        <translation>Dauer: %1</translation>
    </message>
    <message>
        <source>Starts at %1</source>
        <translation>Beginnt bei %1</translation>
    </message>
    <message>
        <source>Module: %1</source>
        <translation>Modul: %1</translation>
    </message>
    <message>
        <source>Input shapes: %1</source>
        <translation>Eingabeformen: %1</translation>
    </message>
    <message>
        <source>Input types: %1</source>
        <translation>Eingabetypen: %1</translation>
    </message>
    <message>
        <source>Sequence number: %1</source>
        <translation>Sequenznummer: %1</translation>
    </message>
    <message>
        <source>Memory step %1 · %2</source>
        <translation>Speicherschritt %1 · %2</translation>
    </message>
    <message>
        <source>Memory step %1</source>
        <translation>Speicherschritt %1</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <source> — reading its calls…</source>
        <translation> – seine Aufrufe werden gelesen …</translation>
    </message>
    <message>
        <source> — click to show its calls</source>
        <translation> – klicken, um seine Aufrufe zu zeigen</translation>
    </message>
    <message>
        <source>Click to hide this rank&apos;s calls (its memory is freed)</source>
        <translation>Klicken, um die Aufrufe dieses Rangs auszublenden (ihr Speicher wird freigegeben)</translation>
    </message>
    <message>
        <source>Click to read and show this rank&apos;s calls</source>
        <translation>Klicken, um die Aufrufe dieses Rangs zu lesen und zu zeigen</translation>
    </message>
    <message>
        <source>Python stack %1</source>
        <translation>Python-Stack %1</translation>
    </message>
    <message>
        <source>Thread %1</source>
        <translation>Thread %1</translation>
    </message>
    <message>
        <source>CANN %1</source>
        <translation>CANN %1</translation>
    </message>
    <message>
        <source>Device %1 stream %2</source>
        <translation>Gerät %1 Stream %2</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::WelcomePage</name>
    <message>
        <source>Profile the Built-in Example</source>
        <translation>Eingebautes Beispiel profilieren</translation>
    </message>
    <message>
        <source>&lt;h2&gt;TrainScope&lt;/h2&gt;&lt;p&gt;See where the time and the memory of one training iteration go, down to the line of your code.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;TrainScope&lt;/h2&gt;&lt;p&gt;Sehen Sie, wohin Zeit und Speicher einer Trainingsiteration gehen – bis hinunter zur Zeile Ihres Codes.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Runs the built-in MLP (d_model 256) on the CPU for a few seconds and shows its profile.</source>
        <translation>Führt das eingebaute MLP (d_model 256) einige Sekunden lang auf der CPU aus und zeigt sein Profil.</translation>
    </message>
    <message>
        <source>New Profile…</source>
        <translation>Neues Profil …</translation>
    </message>
    <message>
        <source>Open Report…</source>
        <translation>Bericht öffnen …</translation>
    </message>
    <message>
        <source>Recent reports:</source>
        <translation>Zuletzt geöffnete Berichte:</translation>
    </message>
</context>
</TS>
