// SPDX-License-Identifier: Apache-2.0
// The Compare tab: the open run (base) against another (new). The comparison is read and
// computed off the GUI thread (trainscope::compareRuns); then the tree shows it, a find field
// filters it, the selected item's source is shown for both runs side by side, and when both
// runs have timelines their memory curves are drawn over each other.
#pragma once

#include <QFutureWatcher>
#include <QWidget>
#include <memory>

#include "trainscope/comparison.h"
#include "views/settling_page.h"

class QChartView;
class QLabel;
class QLineEdit;
class QListWidget;
class QTabWidget;
class QTreeView;

namespace trainscope::ui {

class CompareModel;
class SourceViewer;

class ComparePage : public QWidget, public SettlingPage {
    Q_OBJECT
  public:
    // `base_root`: the folder the base run's frames are resolved against (the browser's).
    // `changed`: the new run's prefix or report file (trainscope::findRunReports, off the GUI
    // thread like the rest).
    ComparePage(RunReports base, QString changed, QString base_root, QWidget* parent = nullptr);
    ~ComparePage() override;

    bool isComputed() const { return model_ != nullptr; }
    bool isSettled() const override { return isComputed() || !error_.isEmpty(); }
    const QString& errorText() const { return error_; }
    CompareModel* model() const { return model_; }
    QTreeView* tree() const { return tree_; }
    QLabel* summary() const { return summary_; }
    QLineEdit* findField() const { return find_; }
    // Per side (0 base, 1 new): its frames list and source viewer.
    QListWidget* framesList(int side) const { return frames_[side]; }
    SourceViewer* sourceViewer(int side) const { return viewers_[side]; }
    QChartView* memoryChart() const { return chart_; }
    // Selects row `row` of a section (for demos and screenshots): its source follows.
    void selectRow(ItemKind kind, int row);
    // The base run's root, and the new run's (recorded and trusted, else its report's folder).
    QString projectRoot(int side) const { return roots_[side]; }

  signals:
    void computed(bool ok);
    void framesShown();  // both sides' frames of the selected item are shown

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    // The names take what the figures leave (elided where long): every figure in view.
    void fitNameColumn();
    struct Result;
    void showResult();
    void showItem(const ComparedItem* item);
    void showFrame(int side, int row);
    void showMemoryCurves(const std::vector<MemorySample>& base,
                          const std::vector<MemorySample>& changed);

    RunReports runs_[2];
    QString roots_[2];
    QString recorded_[2];  // the project root each run's report recorded (real path)
    QFutureWatcher<std::shared_ptr<Result>> computing_;
    QFutureWatcher<std::shared_ptr<Result>> reading_frames_;
    quint64 frames_asked_ = 0;
    CompareModel* model_ = nullptr;
    int figures_width_ = 0;  // the figure columns' widths, as their contents want
    QString error_;
    QLabel* summary_;
    QLineEdit* find_;
    QTreeView* tree_;
    QTabWidget* details_;
    QListWidget* frames_[2];
    SourceViewer* viewers_[2];
    QLabel* titles_[2];
    QChartView* chart_ = nullptr;
    std::vector<StackTrace> shown_frames_{2};
};

}  // namespace trainscope::ui
