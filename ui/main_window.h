// The desktop app's window: opens reports (File › Open, Open Recent, the command line, drag
// and drop) and shows them in a ReportBrowser.
#pragma once

#include <QMainWindow>
#include <QStringList>

class QAction;
class QMenu;

namespace trainscope::ui {

class ReportBrowser;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);

    // Opens the reports of one run: a PREFIX.memory.sqlite or PREFIX.time.sqlite brings its
    // sibling along. Returns false and shows the problem when nothing could be opened.
    bool openReports(const QStringList& paths);
    void closeReports();

    ReportBrowser* browser() const { return browser_; }
    QMenu* recentMenu() const { return recent_menu_; }
    const QString& lastError() const { return last_error_; }

  protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    void showError(const QString& message);
    void chooseAndOpen();
    void chooseProjectRoot();
    void showSettings();
    void fillRecentMenu();

    ReportBrowser* browser_ = nullptr;
    QMenu* recent_menu_ = nullptr;
    QAction* project_root_action_ = nullptr;
    QString last_error_;
};

}  // namespace trainscope::ui
