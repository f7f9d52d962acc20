<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>QObject</name>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>the file does not exist</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>the file is not readable</source>
        <translation>文件不可读</translation>
    </message>
    <message>
        <source>the file is empty</source>
        <translation>文件为空</translation>
    </message>
    <message>
        <source>not an SQLite report (%1)</source>
        <translation>不是 SQLite 报告（%1）</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>编号</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Gradient</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Share of peak</source>
        <translation>占峰值比例</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Operations</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活</translation>
    </message>
    <message>
        <source>No editor command is set (Settings › Editor).</source>
        <translation>未设置编辑器命令（设置 › 编辑器）。</translation>
    </message>
    <message>
        <source>Could not start the editor &quot;%1&quot;. Check the editor command in Settings.</source>
        <translation>无法启动编辑器“%1”。请检查设置中的编辑器命令。</translation>
    </message>
    <message>
        <source>No project root is set (File › Set Project Root…).</source>
        <translation>未设置项目根目录（文件 › 设置项目根目录…）。</translation>
    </message>
    <message>
        <source>Refused to open %1: stack frames must be relative to the project root.</source>
        <translation>拒绝打开 %1：栈帧必须是相对于项目根目录的路径。</translation>
    </message>
    <message>
        <source>Refused to open %1: the path leaves the project root %2.</source>
        <translation>拒绝打开 %1：该路径超出了项目根目录 %2。</translation>
    </message>
    <message>
        <source>%1 is not in the project root %2. Set the project root to the folder the model was profiled from (File › Set Project Root…).</source>
        <translation>%1 不在项目根目录 %2 中。请将项目根目录设为分析该模型时所在的文件夹（文件 › 设置项目根目录…）。</translation>
    </message>
    <message>
        <source>Refused to open %1: it links to a file outside the project root.</source>
        <translation>拒绝打开 %1：它链接到项目根目录之外的文件。</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>Backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 — %2: %3</source>
        <translation>%1 — %2：%3</translation>
    </message>
    <message>
        <source>table %1 is missing</source>
        <translation>缺少表 %1</translation>
    </message>
    <message>
        <source>%1 is not a plain table (it is a %2)</source>
        <translation>%1 不是普通表（而是 %2）</translation>
    </message>
    <message>
        <source>table %1 lacks the columns %2 (%3)</source>
        <translation>表 %1 缺少列 %2（%3）</translation>
    </message>
    <message>
        <source>table %1 cannot be read (%2)</source>
        <translation>无法读取表 %1（%2）</translation>
    </message>
    <message>
        <source>table %1 holds %2 (row %3)</source>
        <translation>表 %1 含有%2（第 %3 行）</translation>
    </message>
    <message>
        <source>the SQLite driver gives no handle to secure the connection</source>
        <translation>SQLite 驱动未提供用于保护连接的句柄</translation>
    </message>
    <message>
        <source>%1 (none in this report)</source>
        <translation>%1（此报告中没有）</translation>
    </message>
    <message>
        <source>%1 (could not be read: %2)</source>
        <translation>%1（无法读取：%2）</translation>
    </message>
    <message>
        <source>Peak memory %1, at that instant</source>
        <translation>峰值内存 %1（该时刻）</translation>
    </message>
    <message>
        <source>Optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Memory over the iteration (no breakdown at the peak)</source>
        <translation>整个迭代的内存（无峰值时刻分解）</translation>
    </message>
    <message>
        <source>%1 (%2 bytes)</source>
        <translation>%1（%2 字节）</translation>
    </message>
    <message>
        <source>Step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
    <message>
        <source>Blocks: %1, of which %2 never freed in the recording</source>
        <translation>内存块：%1 个，其中 %2 个在记录中从未释放</translation>
    </message>
    <message>
        <source>Device: %1 tasks, %2 CANN calls</source>
        <translation>设备：%1 个任务，%2 次 CANN 调用</translation>
    </message>
    <message>
        <source>Schema version %1</source>
        <translation>模式版本 %1</translation>
    </message>
    <message>
        <source>an SQLite database, but not a known report (it has no weight_entries, run_time_entries or timeline table)</source>
        <translation>是 SQLite 数据库，但不是已知的报告（没有 weight_entries、run_time_entries 或时间线表）</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation>%1 微秒</translation>
    </message>
    <message>
        <source>%1 ns</source>
        <translation>%1 纳秒</translation>
    </message>
    <message>
        <source>Sum of operations %1 ms</source>
        <translation>操作合计 %1 毫秒</translation>
    </message>
    <message>
        <source>(no frame)</source>
        <translation>（无栈帧）</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>#</source>
        <translation>序号</translation>
    </message>
    <message>
        <source>s</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>µs</source>
        <translation>微秒</translation>
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
        <translation>字节</translation>
    </message>
    <message>
        <source>TrainScope Manual</source>
        <translation>TrainScope 手册</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Save Chart</source>
        <translation>保存图表</translation>
    </message>
    <message>
        <source>Save Chart as &amp;PNG…</source>
        <translation>将图表另存为 PNG(&amp;P)…</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Save Chart as &amp;SVG…</source>
        <translation>将图表另存为 SVG(&amp;S)…</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>Memory step %1: %2, with the memory meter (the run time report&apos;s iterations are timed without it)</source>
        <translation>内存测量步 %1：%2，含内存计量开销（运行时间报告的迭代在不计量内存时计时）</translation>
    </message>
    <message>
        <source>… and %1 more steps; all %2: shortest %3, median %4, longest %5</source>
        <translation>……另有 %1 个步骤；全部 %2 个：最短 %3，中位数 %4，最长 %5</translation>
    </message>
    <message>
        <source>it is a folder, not a report file</source>
        <translation>这是一个文件夹，不是报告文件</translation>
    </message>
    <message>
        <source>it is not a regular file (a FIFO, a device or a socket)</source>
        <translation>这不是普通文件（而是 FIFO、设备或套接字）</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>%1 samples/s</source>
        <translation>%1 样本/秒</translation>
    </message>
    <message>
        <source>no throughput predicted (the measured iteration time did not grow with the batch size)</source>
        <translation>未预测吞吐量（测得的迭代时间未随批大小增长）</translation>
    </message>
    <message>
        <source>PyTorch&apos;s allocator (PTA)</source>
        <translation>PyTorch 分配器（PTA）</translation>
    </message>
    <message>
        <source>the graph engine (GE)</source>
        <translation>图引擎（GE）</translation>
    </message>
    <message>
        <source>PyTorch&apos;s allocator and the graph engine (PTA+GE)</source>
        <translation>PyTorch 分配器与图引擎（PTA+GE）</translation>
    </message>
    <message>
        <source>the workspace</source>
        <translation>工作区</translation>
    </message>
    <message>
        <source>Framework calls: %1 on one thread, spanning %2 (%3)</source>
        <translation>框架调用：%1 次，1 个线程，跨度 %2（%3）</translation>
    </message>
    <message>
        <source>Framework calls: %1 on %2 threads, spanning %3 (%4)</source>
        <translation>框架调用：%1 次，%2 个线程，跨度 %3（%4）</translation>
    </message>
    <message>
        <source>Memory of %1: peak allocated %2, peak reserved %3</source>
        <translation>%1 的内存：峰值已分配 %2，峰值已预留 %3</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>Peak memory with each change</source>
        <translation>每项更改后的峰值内存</translation>
    </message>
    <message>
        <source>operations: %1</source>
        <translation>操作：%1</translation>
    </message>
    <message>
        <source>collectives: %1</source>
        <translation>集合通信：%1</translation>
    </message>
    <message>
        <source>task queue calls: %1</source>
        <translation>任务队列调用：%1</translation>
    </message>
    <message>
        <source>Python trace calls: %1</source>
        <translation>Python 跟踪调用：%1</translation>
    </message>
    <message>
        <source>mstx marks: %1</source>
        <translation>mstx 标记：%1</translation>
    </message>
    <message>
        <source>%1 calls: %2</source>
        <translation>%1 调用：%2</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>1 event</source>
        <translation>1 个事件</translation>
    </message>
    <message>
        <source>%1 events</source>
        <translation>%1 个事件</translation>
    </message>
    <message>
        <source>The file holds no times: its events are placed in their order, so the spans below count events.</source>
        <translation>文件中没有时间：其事件按顺序排列，因此下面的跨度计的是事件数。</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>At the peak</source>
        <translation>峰值时</translation>
    </message>
    <message>
        <source>After backward</source>
        <translation>反向之后</translation>
    </message>
    <message>
        <source>Recomputed</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>Part</source>
        <translation>部分</translation>
    </message>
    <message>
        <source>Call</source>
        <translation>调用</translation>
    </message>
    <message>
        <source>Device call</source>
        <translation>设备调用</translation>
    </message>
    <message>
        <source>Device fwd</source>
        <translation>设备前向</translation>
    </message>
    <message>
        <source>Device bwd</source>
        <translation>设备反向</translation>
    </message>
    <message>
        <source>CPU call</source>
        <translation>CPU 调用</translation>
    </message>
    <message>
        <source>CPU fwd</source>
        <translation>CPU 前向</translation>
    </message>
    <message>
        <source>CPU bwd</source>
        <translation>CPU 反向</translation>
    </message>
    <message>
        <source>Device total</source>
        <translation>设备总计</translation>
    </message>
    <message>
        <source>Device time of the listed step %1 ms</source>
        <translation>所列步骤的设备时间 %1 毫秒</translation>
    </message>
    <message>
        <source>Computation</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Copies and sets</source>
        <translation>复制和填充</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
</context>
<context>
    <name>RunProgress</name>
    <message>
        <source>Memory: loading the model</source>
        <translation>内存：正在加载模型</translation>
    </message>
    <message>
        <source>Time: loading the model</source>
        <translation>时间：正在加载模型</translation>
    </message>
    <message>
        <source>Memory: warm-up</source>
        <translation>内存：预热</translation>
    </message>
    <message>
        <source>Time: warm-up</source>
        <translation>时间：预热</translation>
    </message>
    <message>
        <source>Memory: measuring</source>
        <translation>内存：测量中</translation>
    </message>
    <message>
        <source>Time: measuring</source>
        <translation>时间：测量中</translation>
    </message>
    <message>
        <source>, iteration %1 of %2</source>
        <translation>，第 %1/%2 次迭代</translation>
    </message>
    <message>
        <source> — about %1 s left</source>
        <translation> — 剩余约 %1 秒</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Training profile viewer</source>
        <translation>训练性能分析查看器</translation>
    </message>
    <message>
        <source>Reports to open</source>
        <translation>要打开的报告</translation>
    </message>
    <message>
        <source>Save the window to FILE.png once shown, then quit</source>
        <translation>窗口显示后保存为 FILE.png，然后退出</translation>
    </message>
    <message>
        <source>Select row ROW of the tab&apos;s first table</source>
        <translation>选中该标签页第一个表格的第 ROW 行</translation>
    </message>
    <message>
        <source>Profile the built-in example at once (what the first-launch button does)</source>
        <translation>立即分析内置示例（与首次启动时的按钮相同）</translation>
    </message>
    <message>
        <source>Use the THEME (system, light, dark) instead of the one in Settings</source>
        <translation>使用主题 THEME（system、light、dark）而不是设置中的主题</translation>
    </message>
    <message>
        <source>Compare the opened run with the run of REPORT (File › Compare With…)</source>
        <translation>将打开的运行与 REPORT 的运行比较（文件 › 与…比较）</translation>
    </message>
    <message>
        <source>Show the tab NAME (overview, memory, time, modules, lines, compiled, advice, timeline, summary, ranks)</source>
        <translation>显示标签页 NAME（overview、memory、time、modules、lines、compiled、advice、timeline、summary、ranks）</translation>
    </message>
</context>
<context>
    <name>trainscope</name>
    <message>
        <source>Transformer MLP block: Linear(d, 4d), activation, Linear(4d, d), dropout</source>
        <translation>Transformer 的 MLP 模块：Linear(d, 4d)、激活函数、Linear(4d, d)、dropout</translation>
    </message>
    <message>
        <source>model width d</source>
        <translation>模型宽度 d</translation>
    </message>
    <message>
        <source>activation</source>
        <translation>激活函数</translation>
    </message>
    <message>
        <source>dropout probability after lin_1 (0: none)</source>
        <translation>lin_1 之后的 dropout 概率（0：无）</translation>
    </message>
    <message>
        <source>GPT-style decoder: token and position embeddings, n_layers pre-norm blocks of causal self-attention and MLP, final norm, LM head</source>
        <translation>GPT 风格的解码器：词元与位置嵌入、n_layers 个由因果自注意力和 MLP 组成的 pre-norm 块、最终归一化、语言模型输出头</translation>
    </message>
    <message>
        <source>vocabulary size</source>
        <translation>词表大小</translation>
    </message>
    <message>
        <source>attention heads (d_model must be a multiple)</source>
        <translation>注意力头数（d_model 须为其整数倍）</translation>
    </message>
    <message>
        <source>sequence length (position embeddings)</source>
        <translation>序列长度（位置嵌入）</translation>
    </message>
    <message>
        <source>decoder blocks</source>
        <translation>解码器块数</translation>
    </message>
    <message>
        <source>MLP activation</source>
        <translation>MLP 激活函数</translation>
    </message>
    <message>
        <source>ResNet-style image classifier with basic blocks in 4 stages (widths w, 2w, 4w, 8w)</source>
        <translation>ResNet 风格的图像分类器，由 4 个阶段的基本块组成（宽度 w、2w、4w、8w）</translation>
    </message>
    <message>
        <source>layers: 2 + 8n, n basic blocks per stage</source>
        <translation>层数：2 + 8n，每个阶段 n 个基本块</translation>
    </message>
    <message>
        <source>channels of the first stage</source>
        <translation>第一阶段的通道数</translation>
    </message>
    <message>
        <source>height and width of the input images</source>
        <translation>输入图像的高度和宽度</translation>
    </message>
    <message>
        <source>output classes</source>
        <translation>输出类别数</translation>
    </message>
    <message>
        <source>a number in [0, 1)</source>
        <translation>[0, 1) 范围内的数</translation>
    </message>
    <message>
        <source>a valid value</source>
        <translation>有效值</translation>
    </message>
    <message>
        <source>a positive integer (at most 2147483647)</source>
        <translation>正整数（最大 2147483647）</translation>
    </message>
    <message>
        <source>attention: matmul and softmax, or fused scaled_dot_product_attention (sdpa: LibTorch 2.0 or later)</source>
        <translation>注意力：matmul 加 softmax，或融合的 scaled_dot_product_attention（sdpa：需 LibTorch 2.0 或更高版本）</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::AdvicePage</name>
    <message>
        <source>the prediction was exact</source>
        <translation>预测完全准确</translation>
    </message>
    <message>
        <source>the prediction was off by %1 %</source>
        <translation>预测偏差 %1 %</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>What if</source>
        <translation>假设</translation>
    </message>
    <message>
        <source>Peak
predicted</source>
        <translation>峰值
预测</translation>
    </message>
    <message>
        <source>Peak
measured</source>
        <translation>峰值
实测</translation>
    </message>
    <message>
        <source>Activations
predicted</source>
        <translation>激活
预测</translation>
    </message>
    <message>
        <source>Activations
measured</source>
        <translation>激活
实测</translation>
    </message>
    <message>
        <source>Step
predicted</source>
        <translation>步骤
预测</translation>
    </message>
    <message>
        <source>Step
measured</source>
        <translation>步骤
实测</translation>
    </message>
    <message>
        <source>Cannot read the what-ifs: %1</source>
        <translation>无法读取假设分析：%1</translation>
    </message>
    <message>
        <source>The step as it is: peak %1, activations %2, step %3. Each what-if below was predicted from what the step&apos;s forward saved for backward; a measured figure is the step run with the change, on a copy of the model. Click one to see its module.</source>
        <translation>当前步骤：峰值 %1，激活 %2，步骤 %3。下面每项假设均根据该步骤前向为反向保存的张量预测；实测值是在模型副本上运行更改后的步骤所得。点击一项可查看其模块。</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>not run</source>
        <translation>未运行</translation>
    </message>
    <message>
        <source>checkpoint each block</source>
        <translation>每个块做检查点</translation>
    </message>
    <message>
        <source>every such module</source>
        <translation>所有此类模块</translation>
    </message>
    <message>
        <source>the optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>the inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>the gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>the model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>bfloat16 autocast of the forward</source>
        <translation>前向传播使用 bfloat16 自动混合精度</translation>
    </message>
    <message>
        <source>checkpoint the fewest blocks that fit the budget: %1</source>
        <translation>为满足预算所需的最少块设置检查点：%1</translation>
    </message>
    <message>
        <source>%1 (worse)</source>
        <translation>%1（更差）</translation>
    </message>
    <message>
        <source>Not advised: as measured, it makes the step worse than it is (peak %1, activations %2).</source>
        <translation>不建议：实测表明它使该步比现状更差（峰值 %1，激活 %2）。</translation>
    </message>
    <message>
        <source>Not advised: as predicted, it makes the step worse than it is (peak %1, activations %2).</source>
        <translation>不建议：预测表明它使该步比现状更差（峰值 %1，激活 %2）。</translation>
    </message>
    <message>
        <source>Step ratio
timed in turns</source>
        <translation>步骤时间比
交替计时</translation>
    </message>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <source>%1 (noise)</source>
        <translation>%1（噪声）</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>Not timed in turns with the step as it is (a report written before TrainScope did).</source>
        <translation>未与原步骤交替计时（该报告写于 TrainScope 支持此功能之前）。</translation>
    </message>
    <message>
        <source>The step with this change took %1 the time of the step as it is, timed in turns in the same process: from %2 to %3 over %4 pairs.</source>
        <translation>做此更改后的步骤用时为原步骤的 %1，在同一进程中交替计时：%4 对中从 %2 到 %3。</translation>
    </message>
    <message>
        <source>No difference is readable: timed in turns with the step as it is, the step with this change took from %2 to %3 its time over %4 pairs (median %1).</source>
        <translation>看不出差异：与原步骤交替计时，做此更改后的步骤在 %4 对中用时为原步骤的 %2 到 %3（中位数 %1）。</translation>
    </message>
    <message>
        <source>batch size %1</source>
        <translation>批大小 %1</translation>
    </message>
    <message>
        <source>batch size %1 (the first above the budget)</source>
        <translation>批大小 %1（第一个超出预算的）</translation>
    </message>
    <message>
        <source>batch size %1 (no batch fits the budget)</source>
        <translation>批大小 %1（没有批大小在预算之内）</translation>
    </message>
    <message>
        <source>the largest batch size within the budget</source>
        <translation>预算之内的最大批大小</translation>
    </message>
    <message>
        <source>not predicted</source>
        <translation>未预测</translation>
    </message>
    <message>
        <source>Not predicted: %1.</source>
        <translation>未预测：%1。</translation>
    </message>
    <message>
        <source>The step time is not predicted for this change: it changes the collectives between the ranks.</source>
        <translation>此更改的步骤时间未预测：它改变了各 rank 之间的集合通信。</translation>
    </message>
    <message>
        <source>the job over %1 ranks</source>
        <translation>作业分布在 %1 个 rank 上</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <source>optimizer state sharded over %1 ranks (ZeRO-1)</source>
        <translation>优化器状态分片到 %1 个 rank（ZeRO-1）</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::BatchSizePage</name>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活</translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Samples/s</source>
        <translation>样本/秒</translation>
    </message>
    <message>
        <source>Batch size:</source>
        <translation>批大小：</translation>
    </message>
    <message>
        <source>This sweep report cannot be read: %1</source>
        <translation>无法读取此扫描报告：%1</translation>
    </message>
    <message>
        <source> — over the budget</source>
        <translation> — 超出预算</translation>
    </message>
    <message>
        <source>Extrapolated: outside the measured batch sizes the prediction assumes that memory and time keep growing on the same line.</source>
        <translation>外推：在已测量的批大小之外，预测假设内存和时间沿同一直线继续增长。</translation>
    </message>
    <message>
        <source>Within the measured batch sizes.</source>
        <translation>在已测量的批大小范围内。</translation>
    </message>
    <message>
        <source>Peak memory</source>
        <translation>峰值内存</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>已测量</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Verified</source>
        <translation>已验证</translation>
    </message>
    <message>
        <source>Budget (%1)</source>
        <translation>预算（%1）</translation>
    </message>
    <message>
        <source>Chosen batch</source>
        <translation>所选批</translation>
    </message>
    <message>
        <source> (out of memory)</source>
        <translation>（内存不足）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: measured at batch sizes %2. Memory budget %3 (%4).</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：在批大小 %2 下测量。内存预算 %3（%4）。</translation>
    </message>
    <message>
        <source>, extrapolated</source>
        <translation>，外推</translation>
    </message>
    <message>
        <source>Not even a batch of 1 is predicted to fit the budget.</source>
        <translation>预测即使批大小为 1 也超出预算。</translation>
    </message>
    <message>
        <source>Fit: peak R² %1 (largest residual %2); iteration time R² %3 (largest residual %4 ms).</source>
        <translation>拟合：峰值 R² %1（最大残差 %2）；迭代时间 R² %3（最大残差 %4 毫秒）。</translation>
    </message>
    <message>
        <source>Verified: batch %1 ran out of memory.</source>
        <translation>已验证：批 %1 内存不足。</translation>
    </message>
    <message>
        <source>out of memory</source>
        <translation>内存不足</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>已测量</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>Extrapolated</source>
        <translation>外推</translation>
    </message>
    <message>
        <source>Batch size (logarithmic)</source>
        <translation>批大小（对数）</translation>
    </message>
    <message>
        <source>Peak (%1, logarithmic)</source>
        <translation>峰值（%1，对数）</translation>
    </message>
    <message>
        <source>Verify by Running</source>
        <translation>运行以验证</translation>
    </message>
    <message>
        <source>Could not verify: %1</source>
        <translation>无法验证：%1</translation>
    </message>
    <message>
        <source>Verify Batch %1</source>
        <translation>验证批大小 %1</translation>
    </message>
    <message>
        <source>Batch %1 is predicted not to fit the budget</source>
        <translation>预测批大小 %1 超出预算</translation>
    </message>
    <message>
        <source>Profile batch %1 as the sweep profiled its sizes, and compare the measurement with the prediction</source>
        <translation>按扫描分析各批大小的方式分析批大小 %1，并将测量结果与预测比较</translation>
    </message>
    <message>
        <source>Batch %1: predicted peak %2 (%3% of the %4 budget), %5</source>
        <translation>批大小 %1：预测峰值 %2（占 %4 预算的 %3%），%5</translation>
    </message>
    <message>
        <source>Largest batch within it: &lt;b&gt;%1&lt;/b&gt; (predicted peak %2, %3)%4.</source>
        <translation>预算内最大批大小：&lt;b&gt;%1&lt;/b&gt;（预测峰值 %2，%3）%4。</translation>
    </message>
    <message>
        <source>Verified at batch %1: peak %2 (prediction off by %3%), %4 samples/s%5.</source>
        <translation>已在批大小 %1 验证：峰值 %2（预测偏差 %3%），%4 样本/秒%5。</translation>
    </message>
    <message>
        <source> (off by %1%)</source>
        <translation>（偏差 %1%）</translation>
    </message>
    <message>
        <source>Verifying batch %1 was cancelled: the report is as it was.</source>
        <translation>批大小 %1 的验证已取消：报告保持不变。</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Cancel Verifying</source>
        <translation>取消验证</translation>
    </message>
    <message>
        <source>Verifying batch %1: starting the run… %2 s</source>
        <translation>正在验证批大小 %1：正在启动运行… %2 秒</translation>
    </message>
    <message>
        <source>Verifying batch %1: %2… %3 s</source>
        <translation>正在验证批大小 %1：%2… %3 秒</translation>
    </message>
    <message>
        <source>Peak (%1)</source>
        <translation>峰值（%1）</translation>
    </message>
    <message>
        <source>verified: out of memory</source>
        <translation>已验证：内存不足</translation>
    </message>
    <message>
        <source>verified</source>
        <translation>已验证</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::ChartSlot</name>
    <message>
        <source>Reading the largest entries…</source>
        <translation>正在读取最大的条目…</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::CompareModel</name>
    <message>
        <source>Iteration (wall time, peak memory)</source>
        <translation>迭代（墙钟时间，峰值内存）</translation>
    </message>
    <message>
        <source>Forward pass (activations)</source>
        <translation>前向传播（激活）</translation>
    </message>
    <message>
        <source>Backward pass (gradients)</source>
        <translation>反向传播（梯度）</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>At the peak: weights</source>
        <translation>峰值时刻：权重</translation>
    </message>
    <message>
        <source>At the peak: gradients</source>
        <translation>峰值时刻：梯度</translation>
    </message>
    <message>
        <source>At the peak: optimizer state</source>
        <translation>峰值时刻：优化器状态</translation>
    </message>
    <message>
        <source>At the peak: activations</source>
        <translation>峰值时刻：激活</translation>
    </message>
    <message>
        <source>At the peak: other</source>
        <translation>峰值时刻：其他</translation>
    </message>
    <message>
        <source>Iteration (wall time)</source>
        <translation>迭代（墙钟时间）</translation>
    </message>
    <message>
        <source>Forward time</source>
        <translation>前向时间</translation>
    </message>
    <message>
        <source>Backward time</source>
        <translation>反向时间</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>Weights at the peak</source>
        <translation>峰值时刻的权重</translation>
    </message>
    <message>
        <source>Gradients at the peak</source>
        <translation>峰值时刻的梯度</translation>
    </message>
    <message>
        <source>Optimizer state at the peak</source>
        <translation>峰值时刻的优化器状态</translation>
    </message>
    <message>
        <source>Activations at the peak</source>
        <translation>峰值时刻的激活</translation>
    </message>
    <message>
        <source>Other at the peak</source>
        <translation>峰值时刻的其他</translation>
    </message>
    <message>
        <source>new</source>
        <translation>新</translation>
    </message>
    <message>
        <source>Totals</source>
        <translation>总计</translation>
    </message>
    <message numerus="yes">
        <source>Modules (%n)</source>
        <translation>
            <numerusform>模块（%n）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Operations (%n)</source>
        <translation>
            <numerusform>操作（%n）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Parameters (%n)</source>
        <translation>
            <numerusform>参数（%n）</numerusform>
        </translation>
    </message>
    <message>
        <source>within noise</source>
        <translation>在噪声内</translation>
    </message>
    <message>
        <source>Fastest to slowest measured iteration: base %1 to %2, new %3 to %4</source>
        <translation>最快到最慢的测量迭代：基准 %1 至 %2，新 %3 至 %4</translation>
    </message>
    <message>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Forward + backward time (for the iteration: its wall time). A change counts when the runs&apos; fastest and slowest iterations do not overlap.</source>
        <translation>前向 + 反向时间（对迭代而言：其墙钟时间）。仅当两次运行的最快与最慢迭代不重叠时，变化才计入。</translation>
    </message>
    <message>
        <source>Activations + weights + gradients (for the iteration: the peak). Memory is exact: every change counts.</source>
        <translation>激活 + 权重 + 梯度（对迭代而言：峰值）。内存是精确的：每个变化都计入。</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Time: base</source>
        <translation>时间：基准</translation>
    </message>
    <message>
        <source>Δ time</source>
        <translation>Δ 时间</translation>
    </message>
    <message>
        <source>Δ%</source>
        <translation>Δ%</translation>
    </message>
    <message>
        <source>Memory: base</source>
        <translation>内存：基准</translation>
    </message>
    <message>
        <source>Δ memory</source>
        <translation>Δ 内存</translation>
    </message>
    <message>
        <source>Within noise: the two runs&apos; timed iterations overlap (or the change is a few microseconds), so it counts as neither an increase nor a decrease</source>
        <translation>在噪声范围内：两次运行的计时迭代相互重叠（或变化只有几微秒），因此既不算增加也不算减少</translation>
    </message>
    <message>
        <source>After the backward pass</source>
        <translation>反向传播之后</translation>
    </message>
    <message>
        <source>Optimizer step</source>
        <translation>优化器步骤</translation>
    </message>
    <message>
        <source>Time after backward</source>
        <translation>反向之后的时间</translation>
    </message>
    <message>
        <source>Optimizer time</source>
        <translation>优化器时间</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::ComparePage</name>
    <message>
        <source>Base: %1</source>
        <translation>基准：%1</translation>
    </message>
    <message>
        <source>New: %1</source>
        <translation>新：%1</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>正在比较…</translation>
    </message>
    <message>
        <source>Find a module, operation or parameter</source>
        <translation>查找模块、操作或参数</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>源代码</translation>
    </message>
    <message>
        <source>No project frames on this side.</source>
        <translation>此侧没有项目栈帧。</translation>
    </message>
    <message>
        <source>These runs cannot be compared: %1</source>
        <translation>无法比较这两次运行：%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Base&lt;/b&gt; %1%2 &amp;nbsp; &lt;b&gt;New&lt;/b&gt; %3%4</source>
        <translation>&lt;b&gt;基准&lt;/b&gt; %1%2 &amp;nbsp; &lt;b&gt;新&lt;/b&gt; %3%4</translation>
    </message>
    <message>
        <source>Operations: %1 matched, %2 added, %3 removed. %4 increases beyond noise.</source>
        <translation>操作：%1 个匹配，%2 个新增，%3 个移除。%4 项增长超出噪声。</translation>
    </message>
    <message>
        <source>Base</source>
        <translation>基准</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新</translation>
    </message>
    <message>
        <source>Time since the first allocation (ms)</source>
        <translation>自首次分配起的时间（毫秒）</translation>
    </message>
    <message>
        <source>Allocated (%1)</source>
        <translation>已分配（%1）</translation>
    </message>
    <message>
        <source>Memory over one iteration</source>
        <translation>一次迭代中的内存</translation>
    </message>
    <message>
        <source>Memory over Time</source>
        <translation>内存随时间变化</translation>
    </message>
    <message>
        <source>Red: an increase beyond the runs&apos; noise (the spread of their timed iterations); green: a decrease beyond it; grey: a change within it.</source>
        <translation>红色：超出运行噪声（计时迭代的离散范围）的增加；绿色：超出噪声的减少；灰色：噪声范围内的变化。</translation>
    </message>
    <message>
        <source>%1 is in %2, the folder this run was profiled in. To show it, open this run and choose Show Files, or set its project root (File › Set Project Root…).</source>
        <translation>%1 位于 %2，即分析此运行时所在的文件夹。要显示它，请打开此运行并选择“显示文件”，或设置其项目根目录（文件 › 设置项目根目录…）。</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::CompiledPage</name>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Compile ID</source>
        <translation>编译 ID</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>图</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Time (s)</source>
        <translation>时间（秒）</translation>
    </message>
    <message>
        <source>Graph break</source>
        <translation>图中断</translation>
    </message>
    <message>
        <source>Recompiled because</source>
        <translation>重新编译原因</translation>
    </message>
    <message numerus="yes">
        <source>%n compilations by torch.compile, %1 s; graph breaks: %2, recompilations: %3</source>
        <translation>
            <numerusform>torch.compile 编译 %n 次，%1 秒；图中断：%2，重新编译：%3</numerusform>
        </translation>
    </message>
    <message>
        <source>Kernels of compiled regions: %1, %2 ms (forward %3 ms, backward %4 ms); %5% of their time on a module and a line of the project</source>
        <translation>编译区域的内核：%1 个，%2 毫秒（前向 %3 毫秒，反向 %4 毫秒）；其时间的 %5% 落在项目的模块和代码行上</translation>
    </message>
    <message>
        <source>%1 ms without a line: %2</source>
        <translation>%1 毫秒无代码行：%2</translation>
    </message>
    <message>
        <source>warm-up</source>
        <translation>预热</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::EntryTableView</name>
    <message>
        <source>&amp;Copy Rows</source>
        <translation>复制行(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Filter to “%1”</source>
        <translation>筛选为“%1”(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Export Table as CSV…</source>
        <translation>将表格导出为 CSV(&amp;E)…</translation>
    </message>
    <message>
        <source>There is no table to export.</source>
        <translation>没有可导出的表格。</translation>
    </message>
    <message>
        <source>The table could not be read in full: %1</source>
        <translation>无法完整读取该表格：%1</translation>
    </message>
    <message>
        <source>Export Table</source>
        <translation>导出表格</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
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
时间：%2 %3（%4 %），前向 %5，反向 %6
激活：%7 %8（%9 %）
权重：%10 %11（%12 %）</translation>
    </message>
    <message>
        <source>(model)</source>
        <translation>（模型）</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::LiveBlocksView</name>
    <message>
        <source>Click the memory curve, or Peak, to list the blocks alive then.</source>
        <translation>点击内存曲线或“峰值”，列出该时刻存活的内存块。</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation>块数</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>Allocated at</source>
        <translation>分配于</translation>
    </message>
    <message>
        <source>Freed at</source>
        <translation>释放于</translation>
    </message>
    <message>
        <source>%1 (rank %2)</source>
        <translation>%1（rank %2）</translation>
    </message>
    <message>
        <source>never freed</source>
        <translation>从未释放</translation>
    </message>
    <message>
        <source>… %1 more</source>
        <translation>… 另有 %1 个</translation>
    </message>
    <message>
        <source>Alive at %1: %2 allocated in all; %3 of it in %4 blocks allocated during the iteration, largest first</source>
        <translation>%1 时存活：共分配 %2；其中 %3 位于本次迭代中分配的 %4 个块，按大小降序</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::MainWindow</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>TrainScope</source>
        <translation>TrainScope</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New Profile…</source>
        <translation>新建分析(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Profile finished.</source>
        <translation>分析完成。</translation>
    </message>
    <message>
        <source>The run failed.</source>
        <translation>运行失败。</translation>
    </message>
    <message>
        <source>The profiling run failed: %1</source>
        <translation>分析运行失败：%1</translation>
    </message>
    <message>
        <source>The run was cancelled; no report was written.</source>
        <translation>运行已取消，未写入任何报告。</translation>
    </message>
    <message>
        <source>A run is in progress; cancel it or wait for it to finish.</source>
        <translation>正在运行中；请取消或等待其完成。</translation>
    </message>
    <message>
        <source>Starting %1…</source>
        <translation>正在启动 %1…</translation>
    </message>
    <message>
        <source>Open Report</source>
        <translation>打开报告</translation>
    </message>
    <message>
        <source>Reports (*.sqlite *.db);;All files (*)</source>
        <translation>报告 (*.sqlite *.db);;所有文件 (*)</translation>
    </message>
    <message>
        <source>%1 — TrainScope</source>
        <translation>%1 — TrainScope</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>Project Root</source>
        <translation>项目根目录</translation>
    </message>
    <message>
        <source>Project root: %1</source>
        <translation>项目根目录：%1</translation>
    </message>
    <message>
        <source>No recent reports</source>
        <translation>没有最近打开的报告</translation>
    </message>
    <message>
        <source>Clear List</source>
        <translation>清除列表</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Summary of %1</source>
        <translation>%1 摘要</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About TrainScope</source>
        <translation>关于 TrainScope(&amp;A)</translation>
    </message>
    <message>
        <source>&lt;h3&gt;TrainScope %1&lt;/h3&gt;&lt;p&gt;Where the time and the memory of a PyTorch training iteration go.&lt;/p&gt;&lt;p&gt;Licensed under the Apache License, Version 2.0.&lt;/p&gt;&lt;p&gt;LibTorch %2 · Qt %3 · SQLite %4&lt;/p&gt;</source>
        <translation>&lt;h3&gt;TrainScope %1&lt;/h3&gt;&lt;p&gt;PyTorch 训练迭代的时间和内存花在了哪里。&lt;/p&gt;&lt;p&gt;依据 Apache 许可证 2.0 版授权。&lt;/p&gt;&lt;p&gt;LibTorch %2 · Qt %3 · SQLite %4&lt;/p&gt;</translation>
    </message>
    <message>
        <source>About TrainScope</source>
        <translation>关于 TrainScope</translation>
    </message>
    <message>
        <source>Set &amp;Project Root…</source>
        <translation>设置项目根目录(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;Export Table as CSV…</source>
        <translation>将表格导出为 CSV(&amp;E)…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>The tab in front has no table to export.</source>
        <translation>当前标签页没有可导出的表格。</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <source>The tab in front has no find field.</source>
        <translation>当前标签页没有查找框。</translation>
    </message>
    <message>
        <source>&amp;Next Tab</source>
        <translation>下一个标签页(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Previous Tab</source>
        <translation>上一个标签页(&amp;P)</translation>
    </message>
    <message>
        <source>TrainScope &amp;Manual</source>
        <translation>TrainScope 手册(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>Co&amp;mpare With…</source>
        <translation>与…比较(&amp;M)</translation>
    </message>
    <message>
        <source>Ctrl+D</source>
        <translation>Ctrl+D</translation>
    </message>
    <message>
        <source>Open a run first: it is the base of the comparison.</source>
        <translation>请先打开一次运行：它是比较的基准。</translation>
    </message>
    <message>
        <source>Compare With</source>
        <translation>与…比较</translation>
    </message>
    <message>
        <source>Compare: %1 with %2</source>
        <translation>比较：%1 与 %2</translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation>打开 %1</translation>
    </message>
    <message>
        <source>Compare With the Open Run</source>
        <translation>与打开的运行比较</translation>
    </message>
    <message>
        <source>Batch Size: %1</source>
        <translation>批大小：%1</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Summary of a Rank</source>
        <translation>单个 rank 摘要</translation>
    </message>
    <message>
        <source>Overview of a Rank</source>
        <translation>单个 rank 概览</translation>
    </message>
    <message>
        <source>Advice: %1</source>
        <translation>建议：%1</translation>
    </message>
    <message>
        <source>Advice</source>
        <translation>建议</translation>
    </message>
    <message>
        <source>Reports, traces and snapshots (*.sqlite *.db *.json *.json.gz *.pickle *.pkl);;Reports (*.sqlite *.db);;torch.profiler traces (*.json *.json.gz);;Memory snapshots (*.pickle *.pkl);;All files (*)</source>
        <translation>报告、跟踪和快照 (*.sqlite *.db *.json *.json.gz *.pickle *.pkl);;报告 (*.sqlite *.db);;torch.profiler 跟踪 (*.json *.json.gz);;内存快照 (*.pickle *.pkl);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>正在导入 %1…</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Import of %1 cancelled.</source>
        <translation>已取消导入 %1。</translation>
    </message>
    <message>
        <source>%1 is a memory snapshot: it holds no operation times, so there is no Time tab.</source>
        <translation>%1 是内存快照：其中没有操作时间，因此没有“时间”选项卡。</translation>
    </message>
    <message>
        <source>%1 has no memory events (recorded without profile_memory=True), so there is no Memory tab.</source>
        <translation>%1 没有内存事件（录制时未设置 profile_memory=True），因此没有“内存”选项卡。</translation>
    </message>
    <message>
        <source>Open &amp;Folder of Traces…</source>
        <translation>打开跟踪文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>Open Folder of Traces</source>
        <translation>打开跟踪文件夹</translation>
    </message>
    <message numerus="yes">
        <source>%n traces</source>
        <translation>
            <numerusform>%n 个跟踪</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>trainscope::ui::MemoryCurveWidget</name>
    <message>
        <source>Click or drag to list the blocks alive at that moment</source>
        <translation>点击或拖动以列出该时刻存活的块</translation>
    </message>
    <message>
        <source>allocated (filled)
reserved (line)
active (dotted)</source>
        <translation>已分配（填充）
已保留（实线）
活动（点线）</translation>
    </message>
    <message>
        <source>peak %1</source>
        <translation>峰值 %1</translation>
    </message>
    <message>
        <source>rank %1: peak %2</source>
        <translation>rank %1：峰值 %2</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::MemoryPage</name>
    <message>
        <source>Largest weights</source>
        <translation>最大的权重</translation>
    </message>
    <message>
        <source>Largest activations</source>
        <translation>最大的激活</translation>
    </message>
    <message>
        <source>%1 — “%2”</source>
        <translation>%1 — “%2”</translation>
    </message>
    <message>
        <source>Largest blocks alive at the peak</source>
        <translation>峰值时存活的最大内存块</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::ModulesModel</name>
    <message>
        <source>%1 of its %2 operations are listed</source>
        <translation>列出了其 %2 个算子中的 %1 个</translation>
    </message>
    <message>
        <source>%1  (%2 %)</source>
        <translation>%1（%2 %）</translation>
    </message>
    <message>
        <source>The model itself, and code outside its submodules</source>
        <translation>模型本身，以及其子模块之外的代码</translation>
    </message>
    <message>
        <source>(model)</source>
        <translation>（模型）</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>#</source>
        <translation>序号</translation>
    </message>
    <message>
        <source>Forward (%1)</source>
        <translation>前向（%1）</translation>
    </message>
    <message>
        <source>Backward (%1)</source>
        <translation>反向（%1）</translation>
    </message>
    <message>
        <source>Total (%1)</source>
        <translation>合计（%1）</translation>
    </message>
    <message>
        <source>Activations (%1)</source>
        <translation>激活（%1）</translation>
    </message>
    <message>
        <source>Weights (%1)</source>
        <translation>权重（%1）</translation>
    </message>
    <message>
        <source>Gradients (%1)</source>
        <translation>梯度（%1）</translation>
    </message>
    <message>
        <source>A weight tied to %1: its bytes are counted once, under %1&apos;s module.</source>
        <translation>与 %1 共享的权重：其字节只计一次，计入 %1 所在的模块。</translation>
    </message>
    <message>
        <source>tied to %1</source>
        <translation>与 %1 共享</translation>
    </message>
    <message>
        <source>An FSDP unit: this rank holds %1 of its %2 parameters; gathered whole they are %3, all-gathered %4 times in the step (%5 of them prefetched) and held %6 ms in all; %7 of them at the peak; its largest reduce-scatter %8.</source>
        <translation>一个 FSDP 单元：此 rank 持有其 %2 个参数中的 %1；全收集后共 %3，在该步中全收集 %4 次（其中 %5 次为预取），共持有 %6 ms；峰值时其中 %7；其最大的 reduce-scatter 为 %8。</translation>
    </message>
    <message>
        <source>Its all-gathers (%1): %2, %3, %4 ms.</source>
        <translation>其全收集（%1）：%2 次，%3，%4 ms。</translation>
    </message>
    <message>
        <source>Its reduce-scatters (%1): %2, %3, %4 ms.</source>
        <translation>其 reduce-scatter（%1）：%2 次，%3，%4 ms。</translation>
    </message>
    <message>
        <source>bytes not known</source>
        <translation>字节数未知</translation>
    </message>
    <message>
        <source>The imported file names no parameters: the module&apos;s weights and gradients are not known.</source>
        <translation>导入的文件未指明参数：该模块的权重和梯度未知。</translation>
    </message>
    <message>
        <source>not named</source>
        <translation>未指明</translation>
    </message>
    <message>
        <source>The time of its operations between the backward pass and the optimizer&apos;s step (gradient clipping)</source>
        <translation>其在反向传播之后、优化器步骤之前的操作时间（梯度裁剪）</translation>
    </message>
    <message>
        <source>The time of its operations in the optimizer&apos;s step</source>
        <translation>其在优化器步骤中的操作时间</translation>
    </message>
    <message>
        <source>After backward (%1)</source>
        <translation>反向之后（%1）</translation>
    </message>
    <message>
        <source>Optimizer (%1)</source>
        <translation>优化器（%1）</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::ModulesPage</name>
    <message>
        <source>&amp;Reset Zoom</source>
        <translation>重置缩放(&amp;R)</translation>
    </message>
    <message>
        <source>Reading the modules…</source>
        <translation>正在读取模块…</translation>
    </message>
    <message>
        <source>Inclusive (with submodules)</source>
        <translation>包含子模块</translation>
    </message>
    <message>
        <source>Self (its own operations)</source>
        <translation>仅自身（自己的算子）</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活</translation>
    </message>
    <message>
        <source>Weights and gradients</source>
        <translation>权重和梯度</translation>
    </message>
    <message>
        <source>&amp;Figures:</source>
        <translation>数值(&amp;F)：</translation>
    </message>
    <message>
        <source>Chart &amp;width:</source>
        <translation>图表宽度(&amp;W)：</translation>
    </message>
    <message>
        <source>The modules could not be read in full: %1</source>
        <translation>无法完整读取模块：%1</translation>
    </message>
    <message>
        <source>&amp;Filter to This Module</source>
        <translation>筛选到此模块(&amp;F)</translation>
    </message>
    <message>
        <source>(model)</source>
        <translation>（模型）</translation>
    </message>
    <message>
        <source>%1 (#%2–%3)</source>
        <translation>%1（#%2–%3）</translation>
    </message>
    <message>
        <source>&amp;Zoom Chart Here</source>
        <translation>图表缩放到此处(&amp;Z)</translation>
    </message>
    <message>
        <source>Find modules and operations</source>
        <translation>查找模块和算子</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::NewProfileDialog</name>
    <message>
        <source>Built-in model</source>
        <translation>内置模型</translation>
    </message>
    <message>
        <source>TorchScript file</source>
        <translation>TorchScript 文件</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>model default</source>
        <translation>模型默认值</translation>
    </message>
    <message>
        <source>Memory only</source>
        <translation>仅内存</translation>
    </message>
    <message>
        <source>Time only</source>
        <translation>仅时间</translation>
    </message>
    <message>
        <source>New Profile</source>
        <translation>新建分析</translation>
    </message>
    <message>
        <source>model.pt (torch.jit.script or trace, then .save)</source>
        <translation>model.pt（torch.jit.script 或 trace，然后 .save）</translation>
    </message>
    <message>
        <source>default: the model file&apos;s folder</source>
        <translation>默认：模型文件所在的文件夹</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Data type</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Add Input</source>
        <translation>添加输入</translation>
    </message>
    <message>
        <source>Remove Input</source>
        <translation>删除输入</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Project root:</source>
        <translation>项目根目录：</translation>
    </message>
    <message>
        <source>Inputs (none: the built-in model&apos;s defaults)</source>
        <translation>输入（留空：使用内置模型的默认值）</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Device:</source>
        <translation>设备：</translation>
    </message>
    <message>
        <source>Data type:</source>
        <translation>数据类型：</translation>
    </message>
    <message>
        <source>Loss:</source>
        <translation>损失函数：</translation>
    </message>
    <message>
        <source>Optimizer:</source>
        <translation>优化器：</translation>
    </message>
    <message>
        <source>Warm-up iterations:</source>
        <translation>预热迭代次数：</translation>
    </message>
    <message>
        <source>Measured iterations:</source>
        <translation>测量迭代次数：</translation>
    </message>
    <message>
        <source>Measure:</source>
        <translation>测量：</translation>
    </message>
    <message>
        <source>Save as:</source>
        <translation>另存为：</translation>
    </message>
    <message>
        <source>Start Profiling</source>
        <translation>开始分析</translation>
    </message>
    <message>
        <source>TorchScript Model</source>
        <translation>TorchScript 模型</translation>
    </message>
    <message>
        <source>TorchScript archives (*.pt *.pth *.zip);;All files (*)</source>
        <translation>TorchScript 归档 (*.pt *.pth *.zip);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Project Root</source>
        <translation>项目根目录</translation>
    </message>
    <message>
        <source>Save Reports As</source>
        <translation>报告另存为</translation>
    </message>
    <message>
        <source>Inputs File</source>
        <translation>输入文件</translation>
    </message>
    <message>
        <source>Inputs (*.pt);;All files (*)</source>
        <translation>输入 (*.pt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>run&apos;s data type</source>
        <translation>运行的数据类型</translation>
    </message>
    <message>
        <source>%1 must be %2</source>
        <translation>%1 必须是%2</translation>
    </message>
    <message>
        <source>Choose a TorchScript file.</source>
        <translation>请选择一个 TorchScript 文件。</translation>
    </message>
    <message>
        <source>The model file %1 does not exist.</source>
        <translation>模型文件 %1 不存在。</translation>
    </message>
    <message>
        <source>The project root %1 is not a folder.</source>
        <translation>项目根目录 %1 不是文件夹。</translation>
    </message>
    <message>
        <source>Input %1: %2</source>
        <translation>输入 %1：%2</translation>
    </message>
    <message>
        <source>The inputs file %1 does not exist.</source>
        <translation>输入文件 %1 不存在。</translation>
    </message>
    <message>
        <source>A TorchScript model needs its inputs: shapes, or an inputs file.</source>
        <translation>TorchScript 模型需要输入：形状或输入文件。</translation>
    </message>
    <message>
        <source>Choose where to save the reports.</source>
        <translation>请选择报告的保存位置。</translation>
    </message>
    <message>
        <source>The folder %1 does not exist.</source>
        <translation>文件夹 %1 不存在。</translation>
    </message>
    <message>
        <source>%1 exists already; reports are never overwritten.</source>
        <translation>%1 已存在；报告永远不会被覆盖。</translation>
    </message>
    <message>
        <source>For a TorchScript model: its inputs, saved by trainscope-export</source>
        <translation>用于 TorchScript 模型：由 trainscope-export 保存的输入</translation>
    </message>
    <message>
        <source>Or, for a TorchScript model, an inputs file:</source>
        <translation>或者（TorchScript 模型）输入文件：</translation>
    </message>
    <message>
        <source>default: %1</source>
        <translation>默认：%1</translation>
    </message>
    <message>
        <source>Memory, time and timeline</source>
        <translation>内存、时间和时间线</translation>
    </message>
    <message>
        <source>Timeline only</source>
        <translation>仅时间线</translation>
    </message>
    <message>
        <source>Sweep batch sizes</source>
        <translation>扫描批大小</translation>
    </message>
    <message>
        <source>Batch sizes to profile, separated by commas: 4,8,16</source>
        <translation>要分析的批大小，以逗号分隔：4,8,16</translation>
    </message>
    <message>
        <source>default: the device&apos;s free memory (CUDA) or the available RAM</source>
        <translation>默认：设备空闲内存（CUDA）或可用内存</translation>
    </message>
    <message>
        <source>default: the available RAM</source>
        <translation>默认：可用内存</translation>
    </message>
    <message>
        <source>The memory the largest batch must fit in: 24GiB, 512MiB</source>
        <translation>最大批必须容纳于的内存：24GiB、512MiB</translation>
    </message>
    <message>
        <source>Batch sizes:</source>
        <translation>批大小：</translation>
    </message>
    <message>
        <source>Memory budget:</source>
        <translation>内存预算：</translation>
    </message>
    <message>
        <source>A sweep changes the batch size: give the inputs as shapes, not a file.</source>
        <translation>扫描会改变批大小：请以形状给出输入，而不是文件。</translation>
    </message>
    <message>
        <source>Python entry point</source>
        <translation>Python 入口点</translation>
    </message>
    <message>
        <source>entry_point.py with model_provider, input_provider, iteration_provider</source>
        <translation>含 model_provider、input_provider、iteration_provider 的 entry_point.py</translation>
    </message>
    <message>
        <source>Your own training step, run by the interpreter below with your torch (python3 -m trainscope profile)</source>
        <translation>您自己的训练步骤，由下方的解释器用您的 torch 运行（python3 -m trainscope profile）</translation>
    </message>
    <message>
        <source>The Python that runs the entry point: it needs torch, and finds the trainscope module</source>
        <translation>运行入口点的 Python：需要 torch，并能找到 trainscope 模块</translation>
    </message>
    <message>
        <source>Use the project&apos;s environment: %1</source>
        <translation>使用项目的环境：%1</translation>
    </message>
    <message>
        <source>Run the entry point with the Python of the environment beside it</source>
        <translation>用入口点旁边的环境中的 Python 运行入口点</translation>
    </message>
    <message>
        <source>Interpreter:</source>
        <translation>解释器：</translation>
    </message>
    <message>
        <source>Python Entry Point</source>
        <translation>Python 入口点</translation>
    </message>
    <message>
        <source>Python files (*.py);;All files (*)</source>
        <translation>Python 文件 (*.py);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Choose a Python entry point.</source>
        <translation>请选择一个 Python 入口点。</translation>
    </message>
    <message>
        <source>The entry point %1 does not exist.</source>
        <translation>入口点 %1 不存在。</translation>
    </message>
    <message>
        <source>Name the Python interpreter that runs the entry point.</source>
        <translation>请指定运行入口点的 Python 解释器。</translation>
    </message>
    <message>
        <source>automatic: doubling toward a quarter of the budget</source>
        <translation>自动：逐次加倍，直至预算的四分之一</translation>
    </message>
    <message>
        <source>inputs.pt (trainscope-export)</source>
        <translation>inputs.pt（trainscope-export）</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::OverviewPage</name>
    <message>
        <source>Peak memory: %1</source>
        <translation>峰值内存：%1</translation>
    </message>
    <message>
        <source>Top operations by activation memory</source>
        <translation>激活内存最多的算子</translation>
    </message>
    <message>
        <source>Top operations by time</source>
        <translation>耗时最多的算子</translation>
    </message>
    <message>
        <source>Could not read the report&apos;s totals: %1</source>
        <translation>无法读取报告的汇总：%1</translation>
    </message>
    <message>
        <source>At the peak: weights %1   gradients %2   optimizer state %3   activations %4   other %5</source>
        <translation>峰值时刻：权重 %1   梯度 %2   优化器状态 %3   激活 %4   其他 %5</translation>
    </message>
    <message>
        <source>The parts at the peak sum to %1, not to the peak.</source>
        <translation>峰值时刻各部分之和为 %1，不等于峰值。</translation>
    </message>
    <message>
        <source>Over the iteration: weights %1   gradients %2   activations %3</source>
        <translation>整个迭代：权重 %1   梯度 %2   激活 %3</translation>
    </message>
    <message>
        <source>Modules at the peak</source>
        <translation>峰值时刻的模块</translation>
    </message>
    <message>
        <source>Iteration (wall, median of the timed iterations): %1 ms
%2, %3% of the iteration</source>
        <translation>迭代（实际耗时，计时迭代的中位数）：%1 毫秒
%2，占迭代的 %3%</translation>
    </message>
    <message>
        <source>Of the weights at the peak, %1 are parameters that FSDP all-gathered for a unit&apos;s compute; of the gradients, %2 are its reduce-scatter buffers.</source>
        <translation>峰值时的权重中，%1 是 FSDP 为某个单元的计算而全收集（all-gather）的参数；梯度中，%2 是其 reduce-scatter 缓冲区。</translation>
    </message>
    <message>
        <source>Sharded over the ranks: %1 of the %2 parameters (%3); this rank holds %4 of their %5.</source>
        <translation>分片到各 rank：%2 个参数中的 %1 个（%3）；此 rank 持有其 %5 中的 %4。</translation>
    </message>
    <message>
        <source>not named in the imported file</source>
        <translation>导入的文件中未标明</translation>
    </message>
    <message>
        <source>Largest blocks alive at the peak</source>
        <translation>峰值时存活的最大内存块</translation>
    </message>
    <message>
        <source>Backward not attributed: %1</source>
        <translation>反向未归属：%1</translation>
    </message>
    <message>
        <source>Memory incomplete: %1</source>
        <translation>内存不完整：%1</translation>
    </message>
    <message>
        <source>Over the iteration: activations %1; no weights listed, nor their gradients: the imported file names no parameters</source>
        <translation>整个迭代：激活 %1；未列出权重及其梯度：导入的文件未指明参数</translation>
    </message>
    <message>
        <source>forward %1 ms, backward %2 ms</source>
        <translation>前向 %1 毫秒，反向 %2 毫秒</translation>
    </message>
    <message>
        <source>, after backward %1 ms</source>
        <translation>，反向之后 %1 毫秒</translation>
    </message>
    <message>
        <source>, optimizer %1 ms</source>
        <translation>，优化器 %1 毫秒</translation>
    </message>
    <message>
        <source>Sum of operations: %1 ms (%2), %3 operations</source>
        <translation>操作合计：%1 毫秒（%2），共 %3 个操作</translation>
    </message>
    <message>
        <source>Operation times are GPU times, between CUDA events around each operation</source>
        <translation>操作时间为 GPU 时间，由每个操作前后的 CUDA 事件测得</translation>
    </message>
    <message>
        <source>Operation times are device times: the kernels, copies and sets each operation launched</source>
        <translation>操作时间为设备时间：每个操作启动的内核、复制和填充</translation>
    </message>
    <message>
        <source>Operation times are CPU times, each call&apos;s span on its thread</source>
        <translation>操作时间为 CPU 时间，即每次调用在其线程上的时长</translation>
    </message>
    <message>
        <source>Device work: kernels %1, copies %2, sets %3 on streams %4; joined to their operation %5</source>
        <translation>设备工作：内核 %1，复制 %2，填充 %3，流 %4；已关联到其操作 %5</translation>
    </message>
    <message>
        <source>, without their launch in the trace %1</source>
        <translation>，追踪中没有其启动 %1</translation>
    </message>
    <message>
        <source>, launched outside any operation %1</source>
        <translation>，在任何操作之外启动 %1</translation>
    </message>
    <message>
        <source>Iteration (wall, one iteration timed): %1 ms
%2, %3% of the iteration</source>
        <translation>迭代（实际耗时，仅计时一次迭代）：%1 毫秒
%2，占迭代的 %3%</translation>
    </message>
    <message>
        <source>Device time of the listed step: %1 ms from its first task to its last; computation %2 ms, communication %3 ms exposed (%6 ms more hidden behind computation), copies and sets %4 ms, idle %5 ms</source>
        <translation>所列步骤的设备时间：从其第一个任务到最后一个任务 %1 ms；计算 %2 ms，暴露的通信 %3 ms（另有 %6 ms 隐藏在计算之后），复制和填充 %4 ms，空闲 %5 ms</translation>
    </message>
    <message>
        <source>Sum of operations&apos; device time: %1 ms (%2), %3 operations</source>
        <translation>操作的设备时间合计：%1 毫秒（%2），共 %3 个操作</translation>
    </message>
    <message>
        <source>Iteration (wall, one iteration timed): %1 ms</source>
        <translation>迭代（实际耗时，仅计时一次迭代）：%1 毫秒</translation>
    </message>
    <message>
        <source>Iteration (wall, median of the timed iterations): %1 ms</source>
        <translation>迭代（实际耗时，计时迭代的中位数）：%1 毫秒</translation>
    </message>
    <message>
        <source>, %1 SMs</source>
        <translation>，%1 个 SM</translation>
    </message>
    <message>
        <source>Recorded on %1</source>
        <translation>记录于 %1</translation>
    </message>
    <message>
        <source>Recorded on %1, rank %2</source>
        <translation>记录于 %1，rank %2</translation>
    </message>
    <message>
        <source>Recorded on %1, rank %2 of %3</source>
        <translation>记录于 %1，rank %2（共 %3 个）</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::ProfileWorker</name>
    <message>
        <source>The run ran out of memory.</source>
        <translation>运行时内存不足。</translation>
    </message>
    <message>
        <source>Batch %1 (%2 of %3): </source>
        <translation>批 %1（第 %2/%3 个）：</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::PythonRun</name>
    <message>
        <source>Could not start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>%1 ended with exit code %2</source>
        <translation>%1 以退出码 %2 结束</translation>
    </message>
    <message>
        <source>%1 did not import trainscope within %2 s</source>
        <translation>%1 未能在 %2 秒内导入 trainscope</translation>
    </message>
    <message>
        <source>%1 ended while importing trainscope, which is likely built for another torch</source>
        <translation>%1 在导入 trainscope 时结束，该 trainscope 可能是为另一个 torch 构建的</translation>
    </message>
    <message>
        <source>%1 has no trainscope: install it into that environment with `%1 -m pip install --no-build-isolation` and TrainScope&apos;s source folder</source>
        <translation>%1 没有 trainscope：请用 `%1 -m pip install --no-build-isolation` 加上 TrainScope 的源代码文件夹将其安装到该环境中</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::RankSummaryPage</name>
    <message>
        <source>&amp;Rank:</source>
        <translation>Rank(&amp;R)：</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::RanksPage</name>
    <message numerus="yes">
        <source>Reading the timelines of %n ranks…</source>
        <translation>
            <numerusform>正在读取 %n 个 rank 的时间线…</numerusform>
        </translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Median step</source>
        <translation>步骤中位数</translation>
    </message>
    <message>
        <source>Memory step</source>
        <translation>内存步骤</translation>
    </message>
    <message>
        <source>Computation</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Overlapped</source>
        <translation>重叠</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Collective</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Longest wait</source>
        <translation>最长等待</translation>
    </message>
    <message>
        <source>Waiting for rank</source>
        <translation>等待的 rank</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Shortest</source>
        <translation>最短</translation>
    </message>
    <message>
        <source>Longest</source>
        <translation>最长</translation>
    </message>
    <message>
        <source>Longest on rank</source>
        <translation>最长所在 rank</translation>
    </message>
    <message>
        <source>Collectives the others wait in, the longest wait first</source>
        <translation>其他 rank 在其中等待的集合通信，最长等待在前</translation>
    </message>
    <message>
        <source>Steps across the ranks, matched by number</source>
        <translation>各 rank 的步骤，按编号对应</translation>
    </message>
    <message>
        <source>These timelines cannot be summed up as the ranks of one job: %1</source>
        <translation>这些时间线不能作为同一作业的各 rank 汇总：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n ranks. Slowest: rank %1, with %2 more time outside communication than the other ranks (their median): what they spend waiting for it.</source>
        <translation>
            <numerusform>%n 个 rank。最慢：rank %1，通信之外的时间比其他 rank（其中位数）多 %2：即它们等待它的时间。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n ranks. No rank stands out: rank %1 has the most time outside communication, %2 more than the others (their median), within how much a rank&apos;s steps vary (%3).</source>
        <translation>
            <numerusform>%n 个 rank。没有哪个 rank 明显更慢：rank %1 通信之外的时间最多，比其他 rank（其中位数）多 %2，但仍在单个 rank 各步之间的波动范围（%3）之内。</numerusform>
        </translation>
    </message>
    <message>
        <source>Held up by rank</source>
        <translation>拖慢的 rank</translation>
    </message>
    <message numerus="yes">
        <source>Rank %1 held up %2 of %n steps: the others waited for it in the step&apos;s collectives, at least a tenth of the step, in more steps than chance.</source>
        <translation>
            <numerusform>rank %1 拖慢了 %n 个步骤中的 %2 个：其他 rank 在该步骤的集合通信中等待它，至少为步骤的十分之一，且次数多于偶然。</numerusform>
        </translation>
    </message>
    <message>
        <source>No rank held the steps up: the rank the others waited for changed from step to step.</source>
        <translation>没有 rank 拖慢步骤：其他 rank 等待的对象在各步骤之间变化。</translation>
    </message>
    <message>
        <source>Others waited for it</source>
        <translation>其他 rank 的等待</translation>
    </message>
    <message>
        <source>Each rank&apos;s clock is its own: steps are matched by number and collectives by what they are (operation, inputs) and their order among those.</source>
        <translation>每个 rank 有自己的时钟：步骤按编号对应，集合通信按其本身（操作、输入）及其在同类中的顺序对应。</translation>
    </message>
    <message>
        <source>The breakdown is of each rank&apos;s first step as its GPU ran it: computation its kernels, copies and sets, communication its NCCL kernels, each instant once.</source>
        <translation>分解针对每个 rank 的第一个步骤在其 GPU 上的执行：计算为其内核、复制和填充，通信为其 NCCL 内核，每个时刻只计一次。</translation>
    </message>
    <message>
        <source>The breakdown is of the memory step (the step whose calls the timelines hold), with the memory meter&apos;s cost.</source>
        <translation>分解针对内存步骤（时间线记录其调用的步骤），包含内存计量的开销。</translation>
    </message>
    <message>
        <source>First step</source>
        <translation>第一个步骤</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::ReportBrowser</name>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>By Source Line</source>
        <translation>按源代码行</translation>
    </message>
    <message>
        <source>This report&apos;s source is in %1. Show files from there?</source>
        <translation>此报告的源代码位于 %1。是否显示其中的文件？</translation>
    </message>
    <message>
        <source>The stack frames cannot be read: %1</source>
        <translation>无法读取栈帧：%1</translation>
    </message>
    <message>
        <source>This report&apos;s source folders could not be read: %1</source>
        <translation>无法读取此报告的源文件夹：%1</translation>
    </message>
    <message>
        <source>Modules</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>Compiled</source>
        <translation>编译</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::ReportFile</name>
    <message>
        <source>a size that is not a byte count</source>
        <translation>不是字节数的大小</translation>
    </message>
    <message>
        <source>a line number or ordering out of range</source>
        <translation>超出范围的行号或顺序</translation>
    </message>
    <message>
        <source>a time that is not a finite, non-negative number of milliseconds</source>
        <translation>不是有限非负毫秒数的时间</translation>
    </message>
    <message>
        <source>a file path that is not text</source>
        <translation>不是文本的文件路径</translation>
    </message>
    <message>
        <source>a value that is not text</source>
        <translation>不是文本的值</translation>
    </message>
    <message>
        <source>a module path that is not text</source>
        <translation>不是文本的模块路径</translation>
    </message>
    <message>
        <source>an operation number that is not a count</source>
        <translation>不是计数的算子序号</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::ReportRun</name>
    <message>
        <source>the report is not open</source>
        <translation>报告未打开</translation>
    </message>
    <message>
        <source>Not opened %1: a window shows one run, and %2 is already its report of that kind.</source>
        <translation>未打开 %1：一个窗口只显示一次运行，而 %2 已是该运行的同类报告。</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::RunFilterBar</name>
    <message>
        <source>Back</source>
        <translation>后退</translation>
    </message>
    <message>
        <source>Reset Filter</source>
        <translation>重置筛选</translation>
    </message>
    <message>
        <source>Undo the last range filter</source>
        <translation>撤销上一个范围筛选</translation>
    </message>
    <message>
        <source>Show every operation again</source>
        <translation>重新显示所有操作</translation>
    </message>
    <message>
        <source>operations %1–%2 (%3)</source>
        <translation>操作 %1–%2（%3）</translation>
    </message>
    <message>
        <source>names containing “%1”</source>
        <translation>名称包含“%1”</translation>
    </message>
    <message>
        <source>Filtered to %1</source>
        <translation>已筛选为 %1</translation>
    </message>
    <message>
        <source> and </source>
        <translation> 且 </translation>
    </message>
</context>
<context>
    <name>trainscope::ui::RunFilterField</name>
    <message>
        <source>Filter operations by name</source>
        <translation>按名称筛选算子</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::SettingsDialog</name>
    <message>
        <source>The new language applies when TrainScope next starts.</source>
        <translation>新语言将在下次启动 TrainScope 时生效。</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>%f is replaced by the file, %l by the line, %c by the column.</source>
        <translation>%f 将替换为文件，%l 替换为行号，%c 替换为列号。</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <source>Editor:</source>
        <translation>编辑器：</translation>
    </message>
    <message>
        <source>Editor command:</source>
        <translation>编辑器命令：</translation>
    </message>
    <message>
        <source>As the desktop</source>
        <translation>跟随桌面</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Theme:</source>
        <translation>主题：</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::SourceLinesPage</name>
    <message>
        <source>Memory by source line (weights and activations, per most specific frame)</source>
        <translation>按源代码行统计的内存（权重与激活，按最内层栈帧）</translation>
    </message>
    <message>
        <source>Memory at the peak by source line (the blocks alive then, per most specific frame)</source>
        <translation>按源代码行的峰值内存（当时存活的块，按最内层栈帧）</translation>
    </message>
    <message>
        <source>Time by source line (each part of the step, per most specific frame)</source>
        <translation>按源代码行统计的时间（步骤的各部分，按最内层栈帧）</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::SourcePanel</name>
    <message>
        <source>Open in Editor</source>
        <translation>在编辑器中打开</translation>
    </message>
    <message>
        <source>Stack frames of the selected entry, most specific first</source>
        <translation>所选条目的栈帧，最内层在前</translation>
    </message>
    <message>
        <source>Runs the editor command from Settings</source>
        <translation>运行设置中的编辑器命令</translation>
    </message>
    <message>
        <source>(no frames in the project)</source>
        <translation>（项目中没有栈帧）</translation>
    </message>
    <message>
        <source>Show Files</source>
        <translation>显示文件</translation>
    </message>
    <message>
        <source>Don&apos;t Show</source>
        <translation>不显示</translation>
    </message>
    <message>
        <source>(no frames in the project: %1)</source>
        <translation>（项目中没有栈帧：%1）</translation>
    </message>
    <message>
        <source>No project frames: %1</source>
        <translation>没有项目栈帧：%1</translation>
    </message>
    <message>
        <source>%1:%2 (library code, read-only)</source>
        <translation>%1:%2（库代码，只读）</translation>
    </message>
    <message>
        <source>%1:%2 is not on this machine (it was in %3 where the report was recorded).</source>
        <translation>%1:%2 不在本机上（记录报告时位于 %3）。</translation>
    </message>
    <message>
        <source>&amp;Open in Editor</source>
        <translation>在编辑器中打开(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Copy Location</source>
        <translation>复制位置(&amp;C)</translation>
    </message>
    <message>
        <source>(the frames cannot be read)</source>
        <translation>（无法读取栈帧）</translation>
    </message>
    <message>
        <source>%1 is not in %2, the report&apos;s own folder. The report names the folder it was profiled in above: choose Show Files to show it from there.</source>
        <translation>%1 不在报告所在的文件夹 %2 中。上方列出了报告分析时所在的文件夹：选择“显示文件”即可从那里显示。</translation>
    </message>
    <message>
        <source>%1:%2 is library code in %3, a folder this report names; choose Show Files above to show it.</source>
        <translation>%1:%2 是位于 %3 的库代码，该文件夹由此报告指定；请在上方选择“显示文件”以显示它。</translation>
    </message>
    <message>
        <source>%1
Library frame, relative to %2</source>
        <translation>%1
库栈帧，相对于 %2</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::SourceViewer</name>
    <message>
        <source>Select a stack frame to see its source.</source>
        <translation>选择一个栈帧以查看其源代码。</translation>
    </message>
    <message>
        <source>%1 is too large to show (over 16 MiB).</source>
        <translation>%1 太大，无法显示（超过 16 MiB）。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::SqlTableModel</name>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>This table could not be read in full: %1</source>
        <translation>无法完整读取此表：%1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 (ms)</source>
        <translation>%1（毫秒）</translation>
    </message>
    <message>
        <source>%1 (bytes)</source>
        <translation>%1（字节）</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::TimePage</name>
    <message>
        <source>Per invocation</source>
        <translation>按每次调用</translation>
    </message>
    <message>
        <source>Grouped by operation</source>
        <translation>按算子分组</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>Top operations by time</source>
        <translation>耗时最多的算子</translation>
    </message>
    <message>
        <source>Top operations by time, summed per operation</source>
        <translation>耗时最多的操作（按操作汇总）</translation>
    </message>
    <message>
        <source>%1 — “%2”</source>
        <translation>%1 — “%2”</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::TimelinePage</name>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Show the whole timeline (Ctrl+0)</source>
        <translation>显示整个时间线（Ctrl+0）</translation>
    </message>
    <message>
        <source>Zoom In</source>
        <translation>放大</translation>
    </message>
    <message>
        <source>Zoom Out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>List the blocks alive at the memory peak</source>
        <translation>列出内存峰值时存活的块</translation>
    </message>
    <message>
        <source>Find operation (Ctrl+F, Enter for next)</source>
        <translation>查找操作（Ctrl+F，回车查找下一个）</translation>
    </message>
    <message>
        <source>Cannot read the timeline: %1</source>
        <translation>无法读取时间线：%1</translation>
    </message>
    <message>
        <source>This timeline names its source files by absolute paths of the machine that recorded it. Show those files where they exist on this machine?</source>
        <translation>此时间线以记录它的机器上的绝对路径命名源文件。若这些文件在本机存在，是否显示？</translation>
    </message>
    <message>
        <source>%1. Wheel: zoom · drag: pan · Shift+drag: zoom to a range · click: select · click the memory curve: blocks alive then</source>
        <translation>%1。滚轮：缩放 · 拖动：平移 · Shift+拖动：缩放到范围 · 点击：选择 · 点击内存曲线：该时刻存活的块</translation>
    </message>
    <message>
        <source>No operation matches “%1”.</source>
        <translation>没有与“%1”匹配的操作。</translation>
    </message>
    <message>
        <source>“%1”: %2 of %3</source>
        <translation>“%1”：第 %2 个，共 %3 个</translation>
    </message>
    <message>
        <source>Filter to View</source>
        <translation>筛选为视图</translation>
    </message>
    <message>
        <source>Keep, in the run&apos;s tables, the operations whose forward calls are in view</source>
        <translation>在本次运行的表格中只保留前向调用位于视图中的操作</translation>
    </message>
    <message>
        <source>No forward call of an operation is in view: nothing to filter to.</source>
        <translation>视图中没有操作的前向调用：无可筛选。</translation>
    </message>
    <message>
        <source>in view in the timeline: %1 to %2</source>
        <translation>时间线视图中：%1 至 %2</translation>
    </message>
    <message>
        <source>Cannot read the calls of %1: %2</source>
        <translation>无法读取 %1 的调用：%2</translation>
    </message>
    <message numerus="yes">
        <source>No operation of the ranks shown matches “%1” (%n collapsed rank(s) not searched: click a rank&apos;s title to show its calls).</source>
        <translation>
            <numerusform>所显示的 rank 中没有与“%1”匹配的操作（%n 个折叠的 rank 未搜索：点击 rank 的标题以显示其调用）。</numerusform>
        </translation>
    </message>
    <message>
        <source>No times in the file: its events are placed 1 µs apart in their order. %1</source>
        <translation>文件中没有时间：其事件按顺序以 1 µs 的间隔排列。%1</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::TimelineSummaryPage</name>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Freed after</source>
        <translation>存活时长</translation>
    </message>
    <message>
        <source>Operations by total time (nested calls count inside their parents too)</source>
        <translation>按总时间排列的操作（嵌套调用也计入其父调用）</translation>
    </message>
    <message>
        <source>Largest allocations</source>
        <translation>最大的分配</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>never freed</source>
        <translation>从未释放</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::TimelineWidget</name>
    <message>
        <source>Step %1 · %2</source>
        <translation>步骤 %1 · %2</translation>
    </message>
    <message>
        <source>from step start</source>
        <translation>自步骤开始</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>File %1</source>
        <translation>文件 %1</translation>
    </message>
    <message>
        <source>%1 — step %2</source>
        <translation>%1 — 步骤 %2</translation>
    </message>
    <message>
        <source> (slowest)</source>
        <translation>（最慢）</translation>
    </message>
    <message>
        <source>Duration: %1</source>
        <translation>时长：%1</translation>
    </message>
    <message>
        <source>Starts at %1</source>
        <translation>开始于 %1</translation>
    </message>
    <message>
        <source>Module: %1</source>
        <translation>模块：%1</translation>
    </message>
    <message>
        <source>Input shapes: %1</source>
        <translation>输入形状：%1</translation>
    </message>
    <message>
        <source>Input types: %1</source>
        <translation>输入类型：%1</translation>
    </message>
    <message>
        <source>Sequence number: %1</source>
        <translation>序列号：%1</translation>
    </message>
    <message>
        <source>Memory step %1 · %2</source>
        <translation>内存测量步 %1 · %2</translation>
    </message>
    <message>
        <source>Memory step %1</source>
        <translation>内存步骤 %1</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>步骤 %1</translation>
    </message>
    <message>
        <source> — reading its calls…</source>
        <translation> — 正在读取其调用…</translation>
    </message>
    <message>
        <source> — click to show its calls</source>
        <translation> — 点击显示其调用</translation>
    </message>
    <message>
        <source>Click to hide this rank&apos;s calls (its memory is freed)</source>
        <translation>点击隐藏此 rank 的调用（释放其内存）</translation>
    </message>
    <message>
        <source>Click to read and show this rank&apos;s calls</source>
        <translation>点击读取并显示此 rank 的调用</translation>
    </message>
    <message>
        <source>Python stack %1</source>
        <translation>Python 栈 %1</translation>
    </message>
    <message>
        <source>Thread %1</source>
        <translation>线程 %1</translation>
    </message>
    <message>
        <source>CANN %1</source>
        <translation>CANN %1</translation>
    </message>
    <message>
        <source>Device %1 stream %2</source>
        <translation>设备 %1 流 %2</translation>
    </message>
</context>
<context>
    <name>trainscope::ui::WelcomePage</name>
    <message>
        <source>Profile the Built-in Example</source>
        <translation>分析内置示例</translation>
    </message>
    <message>
        <source>&lt;h2&gt;TrainScope&lt;/h2&gt;&lt;p&gt;See where the time and the memory of one training iteration go, down to the line of your code.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;TrainScope&lt;/h2&gt;&lt;p&gt;查看一次训练迭代的时间和内存花在了哪里，精确到您代码中的每一行。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Runs the built-in MLP (d_model 256) on the CPU for a few seconds and shows its profile.</source>
        <translation>在 CPU 上运行内置 MLP（d_model 256）几秒钟并显示其分析结果。</translation>
    </message>
    <message>
        <source>New Profile…</source>
        <translation>新建分析…</translation>
    </message>
    <message>
        <source>Open Report…</source>
        <translation>打开报告…</translation>
    </message>
    <message>
        <source>Recent reports:</source>
        <translation>最近的报告：</translation>
    </message>
</context>
</TS>
