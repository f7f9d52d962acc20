// SPDX-License-Identifier: Apache-2.0
// The desktop app's window: opens reports (File › Open, Open Recent, the command line, drag
// and drop) and shows them in a ReportBrowser; starts profiling runs (File › New Profile, the
// first-launch example) on the engine's worker thread, with progress and Cancel in the status
// bar.
#pragma once

#include <QMainWindow>
#include <QStringList>
#include <QTabWidget>

class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QProgressDialog;
class QPushButton;

namespace trainscope::ui {

class BatchSizePage;
class ComparePage;
class ElidedLabel;
class FileImport;
class NewProfileDialog;
class ProfileRunner;
class ReportBrowser;
class ReportRun;
class WelcomePage;
struct RunProgress;
struct RunRequest;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);

    // Opens the reports of one run: a PREFIX.memory.sqlite or PREFIX.time.sqlite brings its
    // siblings along. They are read on the run's worker thread while the window goes on
    // showing what it showed; then they are shown (reportsOpened(true)), or the window says
    // why nothing could be opened (reportsOpened(false)). A run still opening is given up.
    // A torch.profiler trace or a memory snapshot is imported first (run/file_import.h).
    // Several traces (or a folder of them: its traces) open as the ranks of one job.
    void openReports(const QStringList& paths);
    bool opening() const { return opening_ != nullptr || import_ != nullptr; }
    // No run in flight or opening, and every page that reads or computes on a worker done
    // (views/settling_page.h): what the window shows is complete.
    bool isSettled() const;
    void closeReports();

    // Starts a run; its reports open here when it finishes. False while another run is busy.
    bool startRun(const RunRequest& request);
    void runExample();  // the first-launch offer: the small built-in MLP
    NewProfileDialog* showNewProfileDialog();
    // Where runs are saved by default (the app's data folder unless changed).
    void setRunsFolder(const QString& folder) { runs_folder_ = folder; }
    const QString& runsFolder() const { return runs_folder_; }

    ReportBrowser* browser() const { return browser_; }
    // The timelines opened alone (without a memory or run time report), a tab each.
    QTabWidget* timelines() const { return timelines_; }
    WelcomePage* welcomePage() const { return welcome_; }
    ProfileRunner* runner() const { return runner_; }
    QPushButton* cancelButton() const { return cancel_; }
    QString runStatus() const;
    QProgressBar* runProgress() const { return run_progress_; }
    ElidedLabel* statusMessage() const { return status_message_; }
    QMenu* recentMenu() const { return recent_menu_; }
    const QString& lastError() const { return last_error_; }
    // Help › About: the version, the licence, and the versions of LibTorch, Qt and SQLite.
    static QString aboutText();
    void showAbout();

    // Every menu action (Help › Keyboard Shortcuts lists those with a shortcut).
    QList<QAction*> shortcutActions() const;
    // The tabs in front: the run's, or the timelines opened alone.
    QTabWidget* frontTabs() const;
    // Ctrl+F: focuses the find field of the tab in front (false when it has none).
    bool findInFrontTab();
    // Brings the next (1) or previous (-1) tab to the front (Ctrl+Tab, Ctrl+Shift+Tab).
    void stepTab(int step);
    QAction* exportTableAction() const { return export_table_; }

    // File › Compare With…: compares the open run (base) with the run of `path` (a report file
    // of it, or its prefix) in a Compare window. False when no run is open.
    bool compareWith(const QString& path);
    QWidget* compareWindow() const { return compare_window_; }
    ComparePage* comparePage() const;
    // A batch-size sweep's report (PREFIX.sweep.sqlite) opens in a Batch Size window.
    void openSweep(const QString& path);
    // An advice report (PREFIX.advice.sqlite) alone, in a window of its own.
    void openAdvice(const QString& path);
    QWidget* adviceWindow() const { return advice_window_; }
    QWidget* sweepWindow() const { return sweep_window_; }
    BatchSizePage* sweepPage() const;

  signals:
    void reportsOpened(bool shown);

  protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    // A window of its own beside this one (Compare, Batch Size) holding `content`: this window's
    // size and place within the screen; Esc and Ctrl+W close it.
    QWidget* showOwnWindow(const QString& title, QWidget* content);
    void openRunReports(const QStringList& paths);
    // Other tools' files (several: a job's ranks): their reports made before, else made now on a
    // worker, with a progress dialog that can cancel it; opened with `others` (reports of ours).
    void openImported(const QStringList& paths, const QStringList& others);
    void importEnded();
    // Imported files' reports opened (the first file's, and the others' timelines beside it:
    // the ranks of a job), the status line saying what the first file does not hold.
    void openImportedReports(const QStringList& paths, const QList<QStringList>& reports,
                             const QStringList& others);
    void showRun();
    void showError(const QString& message);
    void chooseAndOpen();
    void chooseFolderAndOpen();
    void chooseAndCompare();
    void chooseProjectRoot();
    void showSettings();
    void fillRecentMenu();
    void showProgress(const RunProgress& progress);
    void runEnded(const QString& message);

    ReportRun* opening_ = nullptr;  // a run being opened, shown once it is
    FileImport* import_ = nullptr;  // files being imported, opened once they are
    QStringList import_others_;     // reports of ours opened with them
    QProgressDialog* import_progress_ = nullptr;
    ReportBrowser* browser_ = nullptr;
    QTabWidget* timelines_ = nullptr;
    WelcomePage* welcome_ = nullptr;
    ProfileRunner* runner_ = nullptr;
    QLabel* run_status_ = nullptr;
    ElidedLabel* status_message_ = nullptr;
    QProgressBar* run_progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QString runs_folder_;
    QMenu* recent_menu_ = nullptr;
    QAction* project_root_action_ = nullptr;
    QAction* export_table_ = nullptr;
    QAction* compare_action_ = nullptr;
    QWidget* compare_window_ = nullptr;  // a top-level window, deleted when closed
    QWidget* sweep_window_ = nullptr;    // likewise
    QWidget* advice_window_ = nullptr;   // likewise
    QString last_error_;
};

}  // namespace trainscope::ui
