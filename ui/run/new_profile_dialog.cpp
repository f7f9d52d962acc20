// SPDX-License-Identifier: Apache-2.0
#include "run/new_profile_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include "i18n/language.h"
#include "run/python_environment.h"
#include "trainscope/builtin_models.h"
#include "trainscope/error.h"

namespace trainscope::ui {
namespace {

const QString kGroup = QStringLiteral("newProfile/");
const QStringList kInputDTypes = {QString(),
                                  QStringLiteral("float32"),
                                  QStringLiteral("bfloat16"),
                                  QStringLiteral("float16"),
                                  QStringLiteral("int64"),
                                  QStringLiteral("int32"),
                                  QStringLiteral("bool")};

// Marks a field as wrong (or right again) where the user sees it.
void mark(QWidget* field, const QString& problem) {
    field->setStyleSheet(problem.isEmpty() ? QString()
                                           : QStringLiteral("border: 1px solid #d32f2f;"));
    field->setToolTip(problem);
}

QComboBox* comboOf(const QStringList& items) {
    auto* combo = new QComboBox;
    combo->addItems(items);
    return combo;
}

QWidget* rowOf(QWidget* field, QPushButton* button) {
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(field, 1);
    layout->addWidget(button);
    return row;
}

}  // namespace

NewProfileDialog::NewProfileDialog(const QString& runs_folder, QWidget* parent)
    : QDialog(parent),
      builtin_(new QRadioButton(tr("Built-in model"))),
      file_(new QRadioButton(tr("TorchScript file"))),
      python_(new QRadioButton(tr("Python entry point"))),
      builtin_model_(new QComboBox),
      model_file_(new QLineEdit),
      python_entry_(new QLineEdit),
      interpreter_(new QLineEdit),
      use_environment_(new QPushButton),
      parameters_(new QFormLayout),
      project_root_(new QLineEdit),
      inputs_(new QTableWidget(0, 2)),
      inputs_file_(new QLineEdit),
      batch_enabled_(new QCheckBox(tr("Batch size"))),
      batch_size_(new QSpinBox),
      device_(comboOf({QStringLiteral("cpu")})),
      dtype_(comboOf(
          {QStringLiteral("float32"), QStringLiteral("bfloat16"), QStringLiteral("float16")})),
      loss_(comboOf({tr("model default"), QStringLiteral("sum"), QStringLiteral("mse"),
                     QStringLiteral("cross-entropy"), QStringLiteral("model")})),
      optimizer_(comboOf({QStringLiteral("sgd"), QStringLiteral("adam"), QStringLiteral("none")})),
      warmup_(new QSpinBox),
      iterations_(new QSpinBox),
      measure_(comboOf({tr("Memory, time and timeline"), tr("Memory only"), tr("Time only"),
                        tr("Timeline only"), tr("Sweep batch sizes")})),
      output_(new QLineEdit),
      sweep_sizes_(new QLineEdit),
      sweep_budget_(new QLineEdit),
      inputs_box_(nullptr),
      problem_(new QLabel),
      start_(nullptr),
      runs_folder_(runs_folder) {
    setWindowTitle(tr("New Profile"));
    // Room for a whole report path in "Save as" (about 70 characters) and for the inputs
    // file's hint in its half, within the default window's width.
    setMinimumWidth(760);
    for (const BuiltinModelInfo& model : builtinModels()) {
        builtin_model_->addItem(QString::fromStdString(model.name));
        builtin_model_->setItemData(builtin_model_->count() - 1, engineText(model.description),
                                    Qt::ToolTipRole);
    }
    if (cudaAvailable())
        device_->addItem(QStringLiteral("cuda"));
    model_file_->setPlaceholderText(tr("model.pt (torch.jit.script or trace, then .save)"));
    project_root_->setPlaceholderText(tr("default: the model file's folder"));
    python_entry_->setPlaceholderText(
        tr("entry_point.py with model_provider, input_provider, iteration_provider"));
    python_entry_->setToolTip(
        tr("Your own training step, run by the interpreter below with "
           "your torch (python3 -m trainscope profile)"));
    interpreter_->setToolTip(
        tr("The Python that runs the entry point: it needs torch, and "
           "finds the trainscope module"));
    inputs_file_->setToolTip(tr("For a TorchScript model: its inputs, saved by trainscope-export"));
    inputs_->setHorizontalHeaderLabels({tr("Shape"), tr("Data type")});
    inputs_->horizontalHeader()->setStretchLastSection(true);
    inputs_->verticalHeader()->hide();
    inputs_->setMinimumHeight(90);
    batch_size_->setRange(1, 1 << 20);
    warmup_->setRange(0, 100);
    iterations_->setRange(1, 1000);
    problem_->setWordWrap(true);
    problem_->setStyleSheet(QStringLiteral("color: #d32f2f;"));

    auto* browse_model = new QPushButton(tr("Browse…"));
    auto* browse_entry = new QPushButton(tr("Browse…"));
    auto* browse_root = new QPushButton(tr("Browse…"));
    auto* browse_output = new QPushButton(tr("Browse…"));
    auto* browse_inputs = new QPushButton(tr("Browse…"));
    auto* add_input = new QPushButton(tr("Add Input"));
    auto* remove_input = new QPushButton(tr("Remove Input"));
    // Enter starts the run, wherever the focus is: these act on a click alone.
    for (QPushButton* button : {browse_model, browse_entry, browse_root, browse_output,
                                browse_inputs, add_input, remove_input})
        button->setAutoDefault(false);

    auto* model_box = new QGroupBox(tr("Model"));
    auto* model_form = new QFormLayout(model_box);
    model_form_ = model_form;
    model_form->addRow(builtin_, builtin_model_);
    model_form->addRow(parameters_);
    model_form->addRow(file_, rowOf(model_file_, browse_model));
    model_form->addRow(python_, rowOf(python_entry_, browse_entry));
    interpreter_row_ = rowOf(interpreter_, use_environment_);
    model_form->addRow(tr("Interpreter:"), interpreter_row_);
    model_form->addRow(tr("Project root:"), rowOf(project_root_, browse_root));

    auto* input_buttons = new QHBoxLayout;
    input_buttons->addWidget(add_input);
    input_buttons->addWidget(remove_input);
    input_buttons->addStretch();
    input_buttons->addWidget(batch_enabled_);
    input_buttons->addWidget(batch_size_);
    auto* inputs_box = new QGroupBox(tr("Inputs (none: the built-in model's defaults)"));
    inputs_box_ = inputs_box;
    auto* inputs_layout = new QVBoxLayout(inputs_box);
    inputs_layout->addWidget(inputs_);
    inputs_layout->addLayout(input_buttons);
    // The label above its field: beside it, in half the dialog, it left the field no room.
    inputs_layout->addWidget(new QLabel(tr("Or, for a TorchScript model, an inputs file:")));
    inputs_layout->addWidget(rowOf(inputs_file_, browse_inputs));
    inputs_file_->setPlaceholderText(tr("inputs.pt (trainscope-export)"));

    auto* run_box = new QGroupBox(tr("Run"));
    auto* run_form = new QFormLayout(run_box);
    run_form_ = run_form;
    run_form->addRow(tr("Device:"), device_);
    run_form->addRow(tr("Data type:"), dtype_);
    run_form->addRow(tr("Loss:"), loss_);
    run_form->addRow(tr("Optimizer:"), optimizer_);
    run_form->addRow(tr("Warm-up iterations:"), warmup_);
    run_form->addRow(tr("Measured iterations:"), iterations_);
    run_form->addRow(tr("Measure:"), measure_);
    sweep_sizes_->setPlaceholderText(tr("automatic: doubling toward a quarter of the budget"));
    sweep_sizes_->setToolTip(tr("Batch sizes to profile, separated by commas: 4,8,16"));
    sweep_budget_->setPlaceholderText(cudaAvailable()
                                          ? tr("default: the device's free memory (CUDA) or "
                                               "the available RAM")
                                          : tr("default: the available RAM"));
    sweep_budget_->setToolTip(tr("The memory the largest batch must fit in: 24GiB, 512MiB"));
    run_form->addRow(tr("Batch sizes:"), sweep_sizes_);
    run_form->addRow(tr("Memory budget:"), sweep_budget_);
    // The whole width of the dialog: in the run's half it showed the tail of its path only.
    auto* output_form = new QFormLayout;
    output_form->addRow(tr("Save as:"), rowOf(output_, browse_output));

    // In the dialog from the start: a button made default outside it is not the dialog's
    // default, and the dialog took the first button of its focus chain (a Browse… button).
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    start_ = buttons->addButton(tr("Start Profiling"), QDialogButtonBox::AcceptRole);
    start_->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    // The inputs beside the run's settings, and only the rows that the chosen model and measure
    // use: one above the other, the dialog was taller than the window's 760 px.
    auto* settings = new QHBoxLayout;
    settings->addWidget(inputs_box, 1);
    settings->addWidget(run_box, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(model_box);
    layout->addLayout(settings);
    layout->addLayout(output_form);
    layout->addWidget(problem_);
    layout->addWidget(buttons);

    connect(browse_model, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("TorchScript Model"), model_file_->text(),
            tr("TorchScript archives (*.pt *.pth *.zip);;All files (*)"));
        if (!path.isEmpty()) {
            model_file_->setText(path);
            file_->setChecked(true);
        }
    });
    connect(browse_entry, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Python Entry Point"), python_entry_->text(),
                                         tr("Python files (*.py);;All files (*)"));
        if (!path.isEmpty()) {
            python_entry_->setText(path);
            python_->setChecked(true);
        }
    });
    connect(browse_root, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getExistingDirectory(this, tr("Project Root"), project_root_->text());
        if (!path.isEmpty())
            project_root_->setText(path);
    });
    connect(browse_output, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save Reports As"), output_->text());
        if (!path.isEmpty()) {
            output_edited_ = true;
            output_->setText(path);
        }
    });
    connect(browse_inputs, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Inputs File"), inputs_file_->text(), tr("Inputs (*.pt);;All files (*)"));
        if (!path.isEmpty())
            inputs_file_->setText(path);
    });
    connect(inputs_file_, &QLineEdit::textChanged, this, &NewProfileDialog::validate);
    connect(add_input, &QPushButton::clicked, this, [this] { addInputRow(QString()); });
    connect(remove_input, &QPushButton::clicked, this, [this] {
        inputs_->removeRow(inputs_->currentRow() >= 0 ? inputs_->currentRow()
                                                      : inputs_->rowCount() - 1);
        validate();
    });
    connect(builtin_model_, &QComboBox::currentIndexChanged, this, [this] {
        rebuildParameters();
        builtin_->setChecked(true);
    });
    connect(output_, &QLineEdit::textEdited, this, [this] { output_edited_ = true; });
    for (QLineEdit* field : {model_file_, python_entry_, interpreter_, project_root_, output_})
        connect(field, &QLineEdit::textChanged, this, &NewProfileDialog::validate);
    use_environment_->setToolTip(
        tr("Run the entry point with the Python of the environment beside it"));
    connect(use_environment_, &QPushButton::clicked, this,
            [this] { interpreter_->setText(environment_python_); });
    for (QRadioButton* choice : {builtin_, file_, python_})
        connect(choice, &QRadioButton::toggled, this, &NewProfileDialog::validate);
    connect(inputs_, &QTableWidget::cellChanged, this, &NewProfileDialog::validate);
    connect(batch_enabled_, &QCheckBox::toggled, this, &NewProfileDialog::validate);
    connect(measure_, &QComboBox::currentIndexChanged, this, &NewProfileDialog::validate);
    connect(sweep_sizes_, &QLineEdit::textChanged, this, &NewProfileDialog::validate);
    connect(sweep_budget_, &QLineEdit::textChanged, this, &NewProfileDialog::validate);

    restore();
    validate();
    // The first focus on the model chosen, not on the first Browse… button.
    for (QRadioButton* choice : {builtin_, file_, python_})
        if (choice->isChecked())
            choice->setFocus();
}

QString NewProfileDialog::modelRef() const {
    if (python_->isChecked())
        return python_entry_->text().trimmed();
    return builtin_->isChecked() ? QStringLiteral("builtin:") + builtin_model_->currentText()
                                 : model_file_->text().trimmed();
}

void NewProfileDialog::addInputRow(const QString& shape, const QString& dtype) {
    const int row = inputs_->rowCount();
    inputs_->insertRow(row);
    inputs_->setItem(row, 0, new QTableWidgetItem(shape));
    auto* dtypes = comboOf(kInputDTypes);
    dtypes->setItemText(0, tr("run's data type"));
    dtypes->setCurrentIndex(qMax(0, kInputDTypes.indexOf(dtype)));
    inputs_->setCellWidget(row, 1, dtypes);
    validate();
}

QString NewProfileDialog::parameterValue(const QString& name) const {
    if (QLineEdit* field = parameterField(name))
        return field->text().trimmed();
    const QComboBox* choice = parameterChoice(name);
    return choice ? choice->currentText() : QString();
}

// Null-safe: validate() runs while a row is being built (its cell signals come first).
QString NewProfileDialog::inputDType(int row) const {
    const auto* combo = qobject_cast<QComboBox*>(inputs_->cellWidget(row, 1));
    return combo ? kInputDTypes.value(combo->currentIndex()) : QString();
}

QLineEdit* NewProfileDialog::parameterField(const QString& name) const {
    return qobject_cast<QLineEdit*>(parameter_fields_.value(name));
}

QComboBox* NewProfileDialog::parameterChoice(const QString& name) const {
    return qobject_cast<QComboBox*>(parameter_fields_.value(name));
}

void NewProfileDialog::rebuildParameters() {
    parameter_fields_.clear();  // before the rows go: validate() must not see deleted fields
    while (parameters_->rowCount() > 0)
        parameters_->removeRow(0);
    const BuiltinModelInfo* model = findBuiltinModel(builtin_model_->currentText().toStdString());
    if (!model)
        return;
    const QSettings settings;
    for (const BuiltinParameter& parameter : model->parameters) {
        const QString name = QString::fromStdString(parameter.name);
        const QString value =
            settings
                .value(kGroup + QStringLiteral("params/%1/%2")
                                    .arg(QString::fromStdString(model->name), name),
                       QString::fromStdString(parameter.default_value))
                .toString();
        QWidget* field;
        if (parameter.kind == ParamKind::Choice) {
            auto* combo = new QComboBox;
            for (const std::string& choice : parameter.choices)
                combo->addItem(QString::fromStdString(choice));
            combo->setCurrentText(value);
            field = combo;
        } else {
            auto* edit = new QLineEdit(value);
            connect(edit, &QLineEdit::textChanged, this, &NewProfileDialog::validate);
            field = edit;
        }
        field->setToolTip(engineText(parameter.description));
        parameter_fields_.insert(name, field);
        parameters_->addRow(name + QLatin1Char(':'), field);
    }
    validate();
}

QStringList NewProfileDialog::problems() const {
    QStringList problems;
    auto check = [&](QWidget* field, const QString& problem) {
        mark(field, problem);
        if (!problem.isEmpty())
            problems << problem;
    };
    // The model.
    const BuiltinModelInfo* model = findBuiltinModel(builtin_model_->currentText().toStdString());
    if (builtin_->isChecked()) {
        check(model_file_, {});
        for (const BuiltinParameter& parameter :
             model ? model->parameters : std::vector<BuiltinParameter>{}) {
            QLineEdit* edit = parameterField(QString::fromStdString(parameter.name));
            if (!edit)
                continue;
            const std::string expected =
                checkParameterValue(parameter, edit->text().trimmed().toStdString());
            check(edit, expected.empty() ? QString()
                                         : tr("%1 must be %2")
                                               .arg(QString::fromStdString(parameter.name),
                                                    engineText(expected)));
        }
    } else if (file_->isChecked()) {
        const QFileInfo file(model_file_->text().trimmed());
        check(model_file_,
              model_file_->text().trimmed().isEmpty() ? tr("Choose a TorchScript file.")
              : !file.isFile()
                  ? tr("The model file %1 does not exist.").arg(model_file_->text().trimmed())
                  : QString());
    }
    if (python_->isChecked()) {
        const QString entry = python_entry_->text().trimmed();
        check(python_entry_, entry.isEmpty() ? tr("Choose a Python entry point.")
                             : !QFileInfo(entry).isFile()
                                 ? tr("The entry point %1 does not exist.").arg(entry)
                                 : QString());
        check(interpreter_, interpreter_->text().trimmed().isEmpty()
                                ? tr("Name the Python interpreter that runs the entry point.")
                                : QString());
    } else {
        check(python_entry_, {});
        check(interpreter_, {});
    }
    const QString root = project_root_->text().trimmed();
    check(project_root_, root.isEmpty() || QFileInfo(root).isDir()
                             ? QString()
                             : tr("The project root %1 is not a folder.").arg(root));
    // The inputs: shapes, unless a file of saved inputs (or the entry point) replaces them.
    const int rows = usesInputsFile() || python_->isChecked() ? 0 : inputs_->rowCount();
    for (int row = 0; row < rows; ++row) {
        QTableWidgetItem* item = inputs_->item(row, 0);
        QString problem;
        try {
            parseShape(item ? item->text().trimmed().toStdString() : std::string());
        } catch (const Error& error) {
            problem = tr("Input %1: %2").arg(row + 1).arg(QString::fromUtf8(error.what()));
        }
        if (item) {
            item->setBackground(problem.isEmpty() ? QBrush() : QBrush(QColor(255, 205, 210)));
            item->setToolTip(problem);
        }
        if (!problem.isEmpty())
            problems << problem;
    }
    const QString inputs_file = usesInputsFile() ? inputs_file_->text().trimmed() : QString();
    check(inputs_file_, inputs_file.isEmpty() || QFileInfo(inputs_file).isFile()
                            ? QString()
                            : tr("The inputs file %1 does not exist.").arg(inputs_file));
    if (file_->isChecked() && inputs_->rowCount() == 0 && inputs_file.isEmpty())
        problems << tr("A TorchScript model needs its inputs: shapes, or an inputs file.");
    // Where the reports go.
    const QString prefix = output_->text().trimmed();
    QString output_problem;
    if (prefix.isEmpty()) {
        output_problem = tr("Choose where to save the reports.");
    } else if (!QFileInfo(QFileInfo(prefix).absolutePath()).isDir() &&
               QFileInfo(prefix).absolutePath() != QDir(runs_folder_).absolutePath()) {
        output_problem = tr("The folder %1 does not exist.").arg(QFileInfo(prefix).absolutePath());
    } else {
        RunRequest probe;
        probe.sweep = measure_->currentIndex() == kSweepChoice;
        probe.measure = probe.sweep ? Measure::All : static_cast<Measure>(measure_->currentIndex());
        probe.output_prefix = prefix;
        for (const QString& path : probe.outputPaths()) {
            if (QFileInfo::exists(path))
                output_problem = tr("%1 exists already; reports are never overwritten.").arg(path);
        }
    }
    check(output_, output_problem);
    // A sweep's batch sizes and budget, as the CLI parses them.
    const bool sweep = measure_->currentIndex() == kSweepChoice;
    const auto parsed = [&](QLineEdit* field, auto parse) {
        QString problem;
        if (sweep && !field->text().trimmed().isEmpty()) {
            try {
                parse(field->text().trimmed().toStdString());
            } catch (const Error& error) {
                problem = QString::fromUtf8(error.what());
            }
        }
        check(field, problem);
    };
    parsed(sweep_sizes_, [](const std::string& text) { parseBatchSizes(text); });
    parsed(sweep_budget_, [](const std::string& text) { parseByteSize(text); });
    if (sweep && usesInputsFile())
        problems << tr("A sweep changes the batch size: give the inputs as shapes, not a file.");
    return problems;
}

void NewProfileDialog::validate() {
    if (!output_edited_) {
        // A fresh name for the model chosen, in the folder last used.
        const QString folder =
            output_->text().isEmpty()
                ? QSettings().value(kGroup + QStringLiteral("folder"), runs_folder_).toString()
                : QFileInfo(output_->text()).absolutePath();
        const QSignalBlocker blocker(output_);
        output_->setText(newRunPrefix(folder, modelRef()));
    }
    // What runs is what the dialog shows: a file of saved inputs belongs to a TorchScript
    // model only (it replaces the shapes, and cannot be re-batched).
    inputs_file_->setEnabled(file_->isChecked());
    const bool shapes = !usesInputsFile();
    inputs_->setEnabled(shapes);
    batch_enabled_->setEnabled(shapes);
    batch_size_->setEnabled(shapes && batch_enabled_->isChecked());
    // A Python entry point brings its own inputs, loss, optimizer and data types, and its run
    // writes the three reports.
    const bool python = python_->isChecked();
    inputs_box_->setEnabled(!python);
    for (QWidget* field : {static_cast<QWidget*>(dtype_), static_cast<QWidget*>(loss_),
                           static_cast<QWidget*>(optimizer_), static_cast<QWidget*>(measure_)})
        field->setEnabled(!python);
    interpreter_->setEnabled(python);
    model_form_->setRowVisible(interpreter_row_, python);
    environment_python_ = python ? projectEnvironmentPython(python_entry_->text()) : QString();
    const bool offer = !environment_python_.isEmpty() &&
                       QFileInfo(interpreter_->text().trimmed()).absoluteFilePath() !=
                           QFileInfo(environment_python_).absoluteFilePath();
    use_environment_->setText(offer ? tr("Use the project's environment: %1")
                                          .arg(QFileInfo(python_entry_->text().trimmed())
                                                   .absoluteDir()
                                                   .relativeFilePath(environment_python_))
                                    : QString());
    use_environment_->setVisible(offer);
    model_form_->setRowVisible(parameters_, builtin_->isChecked());
    if (python && measure_->currentIndex() != 0)
        measure_->setCurrentIndex(0);
    const bool sweep = measure_->currentIndex() == kSweepChoice;
    sweep_sizes_->setEnabled(sweep);
    sweep_budget_->setEnabled(sweep);
    run_form_->setRowVisible(sweep_sizes_, sweep);
    run_form_->setRowVisible(sweep_budget_, sweep);
    QStringList found = problems();
    if (python) {
        // The entry point's folder, as python3 -m trainscope takes it.
        project_root_->setPlaceholderText(
            tr("default: %1").arg(QFileInfo(python_entry_->text().trimmed()).absolutePath()));
    } else if (found.isEmpty()) {
        // The engine's own checks, as the CLI runs them (parameter combinations, counts, ...).
        try {
            const RunConfig config = request().config;
            validateConfig(config);
            project_root_->setPlaceholderText(
                tr("default: %1").arg(QString::fromStdString(defaultProjectRoot(config))));
        } catch (const Error& error) {
            found << QString::fromUtf8(error.what());
        }
    }
    problem_->setText(found.value(0));
    start_->setEnabled(found.isEmpty());
}

bool NewProfileDialog::usesInputsFile() const {
    return file_->isChecked() && !inputs_file_->text().trimmed().isEmpty();
}

RunRequest NewProfileDialog::request() const {
    RunRequest request;
    RunConfig& config = request.config;
    config.model = modelRef().toStdString();
    if (builtin_->isChecked()) {
        for (auto it = parameter_fields_.begin(); it != parameter_fields_.end(); ++it) {
            config.params[it.key().toStdString()] = parameterValue(it.key()).toStdString();
        }
    }
    config.project_root = project_root_->text().trimmed().toStdString();
    if (usesInputsFile())
        config.inputs_file = inputs_file_->text().trimmed().toStdString();
    // A file replaces the shapes; an entry point's input_provider replaces both.
    const int rows = config.inputs_file.empty() && !python_->isChecked() ? inputs_->rowCount() : 0;
    for (int row = 0; row < rows; ++row) {
        InputSpec spec;
        spec.shape = parseShape(inputs_->item(row, 0)->text().trimmed().toStdString());
        if (!inputDType(row).isEmpty())
            spec.dtype = parseDType(inputDType(row).toStdString());
        config.inputs.push_back(spec);
    }
    if (batch_enabled_->isChecked() && config.inputs_file.empty())
        config.batch_size = batch_size_->value();
    config.device = parseDevice(device_->currentText().toStdString());
    config.dtype = parseDType(dtype_->currentText().toStdString());
    if (loss_->currentIndex() > 0)
        config.loss = parseLoss(loss_->currentText().toStdString());
    config.optimizer = parseOptimizer(optimizer_->currentText().toStdString());
    config.warmup = warmup_->value();
    config.iterations = iterations_->value();
    request.sweep = measure_->currentIndex() == kSweepChoice;
    request.measure = request.sweep ? Measure::All : static_cast<Measure>(measure_->currentIndex());
    request.output_prefix = output_->text().trimmed();
    if (python_->isChecked()) {
        request.python_entry = python_entry_->text().trimmed();
        request.python_interpreter = interpreter_->text().trimmed();
        request.sweep = false;
        request.measure = Measure::All;
        config.inputs_file.clear();
        config.batch_size.reset();
        return request;
    }
    if (request.sweep) {  // problems() has checked both
        if (!sweep_sizes_->text().trimmed().isEmpty())
            request.batch_sizes = parseBatchSizes(sweep_sizes_->text().trimmed().toStdString());
        if (!sweep_budget_->text().trimmed().isEmpty())
            request.memory_budget = parseByteSize(sweep_budget_->text().trimmed().toStdString());
    }
    return request;
}

void NewProfileDialog::accept() {
    if (!problems().isEmpty())
        return;
    remember();
    QDir().mkpath(QFileInfo(output_->text().trimmed()).absolutePath());
    QDialog::accept();
}

void NewProfileDialog::restore() {
    const QSettings settings;
    auto value = [&](const char* key, const QVariant& fallback = {}) {
        return settings.value(kGroup + QLatin1String(key), fallback);
    };
    builtin_model_->setCurrentText(value("builtin", QStringLiteral("mlp")).toString());
    rebuildParameters();
    model_file_->setText(value("file").toString());
    python_entry_->setText(value("pythonEntry").toString());
    interpreter_->setText(value("interpreter", QStringLiteral("python3")).toString());
    (value("usePython", false).toBool() ? python_
     : value("useFile", false).toBool() ? file_
                                        : builtin_)
        ->setChecked(true);
    project_root_->setText(value("root").toString());
    inputs_file_->setText(value("inputsFile").toString());
    for (const QString& input : value("inputs").toStringList())
        addInputRow(input.section(QLatin1Char(':'), 0, 0), input.section(QLatin1Char(':'), 1));
    batch_enabled_->setChecked(value("batchEnabled", false).toBool());
    batch_size_->setEnabled(batch_enabled_->isChecked());
    batch_size_->setValue(value("batchSize", 1).toInt());
    device_->setCurrentText(value("device", QStringLiteral("cpu")).toString());
    dtype_->setCurrentText(value("dtype", QStringLiteral("float32")).toString());
    loss_->setCurrentIndex(value("loss", 0).toInt());
    optimizer_->setCurrentText(value("optimizer", QStringLiteral("sgd")).toString());
    warmup_->setValue(value("warmup", 2).toInt());
    iterations_->setValue(value("iterations", 5).toInt());
    measure_->setCurrentIndex(value("measure", 0).toInt());
}

void NewProfileDialog::remember() const {
    QSettings settings;
    auto set = [&](const char* key, const QVariant& value) {
        settings.setValue(kGroup + QLatin1String(key), value);
    };
    set("builtin", builtin_model_->currentText());
    set("useFile", file_->isChecked());
    set("file", model_file_->text().trimmed());
    set("usePython", python_->isChecked());
    set("pythonEntry", python_entry_->text().trimmed());
    set("interpreter", interpreter_->text().trimmed());
    for (auto it = parameter_fields_.begin(); it != parameter_fields_.end(); ++it) {
        settings.setValue(
            kGroup + QStringLiteral("params/%1/%2").arg(builtin_model_->currentText(), it.key()),
            parameterValue(it.key()));
    }
    set("root", project_root_->text().trimmed());
    set("inputsFile", inputs_file_->text().trimmed());
    QStringList inputs;
    for (int row = 0; row < inputs_->rowCount(); ++row) {
        inputs << inputs_->item(row, 0)->text().trimmed() + QLatin1Char(':') + inputDType(row);
    }
    set("inputs", inputs);
    set("batchEnabled", batch_enabled_->isChecked());
    set("batchSize", batch_size_->value());
    set("device", device_->currentText());
    set("dtype", dtype_->currentText());
    set("loss", loss_->currentIndex());
    set("optimizer", optimizer_->currentText());
    set("warmup", warmup_->value());
    set("iterations", iterations_->value());
    set("measure", measure_->currentIndex());
    set("folder", QFileInfo(output_->text().trimmed()).absolutePath());
}

}  // namespace trainscope::ui
