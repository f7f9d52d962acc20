// SPDX-License-Identifier: Apache-2.0
// File › New Profile: what to profile (a built-in model with its parameters, a TorchScript
// file, or a Python entry point run in its own interpreter), its inputs, device, loss, optimizer,
// iterations, what to measure and where to save. Invalid values are marked before a run can start;
// the last values are remembered.
#pragma once

#include <QDialog>
#include <QMap>

#include "run/run_request.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTableWidget;

namespace trainscope::ui {

class NewProfileDialog : public QDialog {
    Q_OBJECT
  public:
    // `runs_folder`: where reports go until the user picks another folder (it is created on
    // Start when missing).
    explicit NewProfileDialog(const QString& runs_folder, QWidget* parent = nullptr);

    // Valid only when problems() is empty.
    RunRequest request() const;
    // What is wrong with the current values, one line each; empty when a run can start.
    QStringList problems() const;

    // For tests and automation: the fields as a user reaches them.
    QRadioButton* builtinChoice() const { return builtin_; }
    QRadioButton* fileChoice() const { return file_; }
    QRadioButton* pythonChoice() const { return python_; }
    QLineEdit* pythonEntry() const { return python_entry_; }
    QLineEdit* interpreter() const { return interpreter_; }
    // Offers the Python of the environment beside the entry point, when there is one that the
    // interpreter field does not name already (run/python_environment.h).
    QPushButton* useEnvironment() const { return use_environment_; }
    QComboBox* builtinModel() const { return builtin_model_; }
    QLineEdit* parameterField(const QString& name) const;
    QComboBox* parameterChoice(const QString& name) const;
    QLineEdit* modelFile() const { return model_file_; }
    QTableWidget* inputs() const { return inputs_; }
    void addInputRow(const QString& shape, const QString& dtype = QString());
    QLineEdit* inputsFile() const { return inputs_file_; }
    QComboBox* measureChoice() const { return measure_; }
    QComboBox* deviceChoice() const { return device_; }
    QSpinBox* warmup() const { return warmup_; }
    QSpinBox* iterations() const { return iterations_; }
    QLineEdit* outputPrefix() const { return output_; }
    QLineEdit* sweepSizes() const { return sweep_sizes_; }
    QLineEdit* sweepBudget() const { return sweep_budget_; }
    // The Measure choice that sweeps batch sizes (after the engine's Measure values).
    static constexpr int kSweepChoice = 4;
    QPushButton* startButton() const { return start_; }

    void accept() override;

  private:
    bool usesInputsFile() const;
    void rebuildParameters();
    void validate();
    void restore();
    void remember() const;
    QString modelRef() const;
    QString parameterValue(const QString& name) const;  // from its field or its choice
    QString inputDType(int row) const;                  // empty: the run's data type

    QRadioButton* builtin_;
    QRadioButton* file_;
    QRadioButton* python_;
    QComboBox* builtin_model_;
    QLineEdit* model_file_;
    QLineEdit* python_entry_;
    QLineEdit* interpreter_;
    QPushButton* use_environment_;
    QWidget* interpreter_row_ = nullptr;  // the interpreter and the offer, one form row
    QString environment_python_;          // what use_environment_ offers
    QFormLayout* parameters_;
    QMap<QString, QWidget*> parameter_fields_;
    QLineEdit* project_root_;
    QTableWidget* inputs_;
    QLineEdit* inputs_file_;
    QCheckBox* batch_enabled_;
    QSpinBox* batch_size_;
    QComboBox* device_;
    QComboBox* dtype_;
    QComboBox* loss_;
    QComboBox* optimizer_;
    QSpinBox* warmup_;
    QSpinBox* iterations_;
    QComboBox* measure_;
    QLineEdit* output_;
    QLineEdit* sweep_sizes_;  // Measure: Sweep batch sizes
    QLineEdit* sweep_budget_;
    QWidget* inputs_box_;  // what a Python entry point's own input_provider replaces
    QFormLayout* model_form_;
    QFormLayout* run_form_;
    QLabel* problem_;
    QPushButton* start_;
    bool output_edited_ = false;
    QString runs_folder_;
};

}  // namespace trainscope::ui
